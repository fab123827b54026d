/**
 * A file picker that offers named choices and opens on the first: the File System Access picker
 * (`showOpenFilePicker`, Chromium on a desktop). Browsers without it (Safari, Firefox, phones) use the file input's
 * own picker, whose `accept` lists every type, so nothing the portal takes is ever out of reach.
 */

export interface FilePickerChoice { description: string; accept: Record<string, string[]> }

type ShowOpenFilePicker = (options: { types: FilePickerChoice[]; excludeAcceptAllOption: boolean; multiple: boolean }) =>
  Promise<Array<{ getFile(): Promise<File> }>>;

/** The browser's picker with choices, or null when it has none. */
export function pickerWithChoices(): ShowOpenFilePicker | null {
  const picker = (window as unknown as { showOpenFilePicker?: ShowOpenFilePicker }).showOpenFilePicker;
  return typeof picker === 'function' ? picker.bind(window) : null;
}

/**
 * Opens `picker` on `choices` (its "All files" choice kept) and puts the chosen file in `input` too, so the input
 * names it as if its own picker had chosen it. Resolves null when the person cancels; rejects when the browser refused
 * to open it (the caller then lets the input's own picker open on the next try).
 */
export async function chooseFile(picker: ShowOpenFilePicker, input: HTMLInputElement, choices: FilePickerChoice[]): Promise<File | null> {
  let handles: Awaited<ReturnType<ShowOpenFilePicker>>;
  try {
    handles = await picker({ types: choices, excludeAcceptAllOption: false, multiple: false });
  } catch (error) {
    if ((error as { name?: string }).name === 'AbortError') return null;
    throw error;
  }
  const file = await handles[0].getFile();
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  return file;
}
