// The import's progress bar on stderr (by bytes of the file, so one pass is enough), and the
// lines printed while it runs: on a terminal they go above the bar instead of through it.
import cliProgress from 'cli-progress';

export interface Progress {
  update(records: number, bytesRead: number): void;
  /** Prints one line on stderr. */
  log(line: string): void;
  stop(): void;
}

export function progressBar(label: string, totalBytes: number, terminal = process.stderr.isTTY): Progress {
  const bars = new cliProgress.MultiBar(
    {
      format: `${label} {bar} {percentage}% | {records} records | {speed}/s | ETA {eta_formatted}`,
      // Off a terminal (a log file, CI) a plain progress line every 5 s.
      noTTYOutput: !terminal,
      notTTYSchedule: 5000,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  const bar = bars.create(Math.max(totalBytes, 1), 0, { records: 0, speed: 0 });
  const started = performance.now();
  return {
    update(records, bytesRead) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(Math.min(bytesRead, totalBytes), { records, speed: Math.round(records / Math.max(seconds, 0.001)) });
    },
    log(line) {
      if (terminal) bars.log(`${line}\n`);
      else process.stderr.write(`${line}\n`);
    },
    stop() {
      if (terminal) bars.update(); // prints what log() buffered
      bars.stop();
    },
  };
}
