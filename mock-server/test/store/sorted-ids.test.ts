import { describe, expect, it } from 'vitest';
import { SortedList } from '../../src/store/sorted-ids.js';

describe('SortedList', () => {
  it('keeps values ascending whatever the order of inserts, duplicates included', () => {
    const list = new SortedList('float64');
    for (const v of [5, 1, 9, 5, 3, 10, 0.5]) list.insert(v);
    expect(list.toArray()).toEqual([0.5, 1, 3, 5, 5, 9, 10]);
    expect([list.first, list.last, list.size]).toEqual([0.5, 10, 7]);
    expect([...list.descending()]).toEqual([10, 9, 5, 5, 3, 1, 0.5]);
  });

  it('removes one occurrence, says whether it found one, and gives memory back when it shrinks', () => {
    const list = new SortedList();
    for (let i = 1; i <= 100; i++) list.insert(i);
    expect(list.remove(50)).toBe(true);
    expect(list.remove(50)).toBe(false);
    expect(list.has(50)).toBe(false);
    expect(list.has(51)).toBe(true);
    for (let i = 1; i <= 100; i++) list.remove(i);
    expect(list.size).toBe(0);
    expect(list.first).toBeUndefined();
    list.insert(7);
    expect(list.toArray()).toEqual([7]);
  });

  it('counts the values in a half-open window (after, upTo]', () => {
    const list = new SortedList('float64');
    for (const v of [10, 20, 20, 30, 40]) list.insert(v);
    expect(list.countIn(10, 30)).toBe(3);
    expect(list.countIn(0, 10)).toBe(1);
    expect(list.countIn(40, 100)).toBe(0);
    expect(list.countIn(30, 20)).toBe(0);
  });

  it('keeps a value that does not fit 32 bits exactly instead of wrapping it around', () => {
    const list = new SortedList();
    for (const v of [3, 2 ** 31 - 1, 1]) list.insert(v);
    list.insert(2 ** 40);
    list.insert(2.5);
    expect(list.toArray()).toEqual([1, 2.5, 3, 2 ** 31 - 1, 2 ** 40]);
  });
});
