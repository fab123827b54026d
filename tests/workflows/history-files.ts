/**
 * Saved workflow histories as JSON, through @temporalio/proto's own converters. (The SDK's historyToJSON trips on two
 * copies of protobufjs that npm installs side by side here.)
 */
import { temporal } from '@temporalio/proto';
import { readFile, writeFile } from 'node:fs/promises';

const History = temporal.api.history.v1.History;
const OPTIONS = { longs: String, enums: String, bytes: String, defaults: false } as const;

/**
 * Writes a recorded history unless the file exists (then answers false): a saved history stands for the runs of the
 * code it was recorded on, so it is never replaced; a new shape gets a new file.
 */
export async function saveHistory(file: string, history: temporal.api.history.v1.IHistory): Promise<boolean> {
  const plain = History.toObject(History.fromObject(history as never), OPTIONS);
  try {
    await writeFile(file, `${JSON.stringify(plain, null, 1)}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export async function loadHistory(file: string): Promise<temporal.api.history.v1.History> {
  return History.fromObject(JSON.parse(await readFile(file, 'utf8')));
}
