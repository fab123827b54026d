/**
 * Okabe–Ito colours: distinguishable with every common colour-vision deficiency (and in grey print), used in this
 * order for the series of a chart. Text on a bar takes black or white, whichever contrasts more with it.
 */
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'] as const;

export const seriesColor = (index: number) => OKABE_ITO[index % OKABE_ITO.length];

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export const textColorOn = (hex: string) => ((luminance(hex) + 0.05) / 0.05 >= 1.05 / (luminance(hex) + 0.05) ? '#000000' : '#ffffff');
