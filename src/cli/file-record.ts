// One record read from an import file, or why the text at that line is not one.

/** `line` is the physical line (1-based) where the record starts. */
export type FileRecord = { line: number; value: unknown; error?: undefined } | { line: number; error: string; value?: undefined };
