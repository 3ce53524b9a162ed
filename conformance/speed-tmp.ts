import { readFileSync } from 'node:fs';
import { TEMPLATES } from './src/explore/operations/index.js';
import { loadContract, ResponseSchemas } from './src/openapi.js';
import { explore } from './src/explore/run.js';
import { Target } from './src/target.js';
for (const skip of (process.env.SKIP ?? '').split(',').filter(Boolean)) {
  const i = (TEMPLATES as unknown as { name: string }[]).findIndex((t) => t.name === skip);
  if (i >= 0) (TEMPLATES as unknown as unknown[]).splice(i, 1);
}
const serverCpu = () => {
  const pid = process.env.SERVER_PID;
  if (!pid) return 0;
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const target = await Target.connect(process.argv[2] ?? 'http://127.0.0.1:47123');
const api = await loadContract();
const schemas = await ResponseSchemas.load();
const t0 = process.cpuUsage();
const s0 = serverCpu();
const result = await explore({ target, api, schemas, tiers: (process.env.TIERS ?? 'spec,companion').split(',') as never, seed: Number(process.env.SEED ?? 7), durationMs: Number(process.env.MS ?? 15000), users: 4 });
const cpu = process.cpuUsage(t0);
const c = Math.round((cpu.user + cpu.system) / 1000);
const sv = serverCpu() - s0;
console.log(JSON.stringify({ steps: result.steps, sequences: result.sequences, sps: result.stepsPerSecond, ms: result.ms, clientCpuMsPerStep: +(c / result.steps).toFixed(1), serverCpuMsPerStep: +(sv / result.steps).toFixed(1), findings: result.findings.map((f) => [f.rule, f.message, f.steps.length]) }));
