import { loadRules } from '../catalogue.js';
import type { RuleDef, RunResult } from '../model.js';
import { loadContract, ResponseSchemas } from '../openapi.js';
import type { Output } from '../report/index.js';
import { ContractFacts } from './contract.js';
import { ForwardingProxy } from './forward.js';
import { Judge } from './judge.js';
import { LivePrinter } from './live.js';
import { Recorder } from './recorder.js';

/**
 * `teamchat proxy` as a function (what the CLI and the tests call): a forwarding proxy in front of a
 * target whose every exchange is judged against openapi/ and the rule catalogue, printed live, and kept
 * as a RunResult for `conform`'s report writers.
 */
export interface ProxyOptions {
  target: string;
  host?: string;
  /** 0 (the default): any free port. */
  port?: number;
  /** Where violations are printed as they happen (default: nowhere). */
  out?: Output;
  color?: boolean;
  /** Also print a line for each exchange judged clean. */
  verbose?: boolean;
  /** Overrides what the listening address says (forward.ts ForwardOptions): for tests. */
  beyondLoopback?: boolean;
  /** Told of an error inside the proxy that no exchange could report (it keeps running). */
  onInternalError?(error: unknown): void;
  /** Loaded once by callers that start several proxies (tests). */
  schemas?: ResponseSchemas;
  facts?: ContractFacts;
  catalogue?: readonly RuleDef[];
}

export interface RunningProxy {
  /** Where clients connect instead of the target. */
  readonly url: string;
  readonly recorder: Recorder;
  /** Stops forwarding (open long-polls end), waits for the last verdicts, and returns the run. */
  stop(): Promise<RunResult>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  // One reading of the document for both (dereferencing it is most of a start) unless the caller has them.
  const document = options.schemas && options.facts ? null : loadContract();
  const [schemas, facts, catalogue] = await Promise.all([
    options.schemas ?? document!.then(ResponseSchemas.of),
    options.facts ?? document!.then(ContractFacts.of),
    options.catalogue ?? loadRules(),
  ]);
  const printer = new LivePrinter(options.out ?? { write: () => true }, options.color ?? false, options.verbose ?? false);
  const recorder = new Recorder(options.target, new Judge(schemas, facts, catalogue), catalogue, printer);
  const forwarder = await ForwardingProxy.start({
    target: options.target,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.beyondLoopback === undefined ? {} : { beyondLoopback: options.beyondLoopback }),
    ...(options.onInternalError === undefined ? {} : { onInternalError: options.onInternalError }),
    onExchange: (c) => recorder.record(c),
  });
  printer.listening(forwarder.url, options.target, catalogue.length, forwarder.beyondLoopback);
  let stopped: Promise<RunResult> | null = null;
  return {
    url: forwarder.url,
    recorder,
    stop() {
      stopped ??= (async () => {
        await forwarder.close();
        await recorder.settled();
        return recorder.result();
      })();
      return stopped;
    },
  };
}
