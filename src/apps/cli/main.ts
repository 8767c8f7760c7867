// The `mnesos` process entry: output guards, the last-resort failure handler, and the exit code of the run.
// The program itself is in program.ts.
import { EXIT } from './exit-codes.ts';
import { debugRequested, describeFailure, main, stopQuietlyOnClosedOutput } from './program.ts';

stopQuietlyOnClosedOutput();
process.on('uncaughtException', (error) => {
  // What a command left running (a socket, a timer) failed after the command returned control.
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(EXIT.ok);
  const failure = describeFailure(error, debugRequested(process.argv.slice(2)));
  process.stderr.write(failure.text);
  process.exit(failure.exitCode);
});
process.exitCode = await main(process.argv.slice(2));
