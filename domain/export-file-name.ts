/** The name of an Export Requests sheet (spec 2 §7.11). */

/** `coi_export_` plus the local timestamp, e.g. coi_export_2026-11-22_031502. */
export function exportFileName(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `coi_export_${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}_${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}
export const EXPORT_FILE_NAME = /^coi_export_[0-9A-Za-z_-]{1,60}$/;
