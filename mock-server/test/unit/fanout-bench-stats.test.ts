import { describe, expect, it } from 'vitest';
import { cpuMsOfStat, openFileLimits, quantile, summarize } from '../../../bench/fanout-stats.js';

// The fan-out benchmark's arithmetic only: the figures themselves are measured by `npm run bench`.
describe('fan-out benchmark arithmetic', () => {
  it('takes quantiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile(values, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('summarizes the last delivery per message apart from every delivery', () => {
    // Three messages to four recipients: the last deliveries are 40, 10 and 25 ms.
    const figures = summarize([
      [1, 2, 3, 40],
      [10, 9, 8, 7],
      [25, 5, 5, 5],
    ]);
    expect(figures).toEqual({
      recipients: 4,
      messages: 3,
      lastP50: 25,
      lastP99: 40,
      deliveryP50: 5,
      deliveryP99: 40,
    });
  });

  it('reads the open-file limits of /proc/<pid>/limits', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63432                63432                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n');
    expect(openFileLimits(limits)).toEqual({ soft: 1024, hard: 524288 });
    expect(openFileLimits('Max open files            unlimited            unlimited            files')).toEqual({
      soft: Number.POSITIVE_INFINITY,
      hard: Number.POSITIVE_INFINITY,
    });
    expect(openFileLimits('')).toBeNull();
  });

  it('adds user and system time of /proc/<pid>/stat, whatever the command name holds', () => {
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 1 1 1';
    expect(cpuMsOfStat(stat)).toBe(3000);
    expect(cpuMsOfStat('4242 (node) S 1')).toBeNull();
    expect(cpuMsOfStat(null)).toBeNull();
  });
});
