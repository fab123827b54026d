/** What an uploaded file really is, by its bytes: the rule lives in storage/ (uploads and email attachments share it). */
export * from '../../storage/file-sniffing';
