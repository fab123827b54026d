import { describe, expect, it } from 'vitest';
import { addMonths, addMonthsToDay, dayAfterKey, dayLabel, monthTitle, monthWeeks, rangeAfterClick } from '../../domain';

describe('date range picking (spec 1 §4)', () => {
  it('the first click sets the start, the second the end, a third starts anew', () => {
    const first = rangeAfterClick({ start: null, end: null }, '2025-05-01');
    expect(first).toEqual({ start: '2025-05-01', end: null });
    const second = rangeAfterClick(first, '2025-05-03');
    expect(second).toEqual({ start: '2025-05-01', end: '2025-05-03' });
    expect(rangeAfterClick(second, '2025-06-10')).toEqual({ start: '2025-06-10', end: null });
    expect(rangeAfterClick(first, '2025-05-01')).toEqual({ start: '2025-05-01', end: '2025-05-01' }); // one day
  });

  it('an earlier second date swaps only where swapping is enabled; otherwise it becomes the start', () => {
    const started = { start: '2025-05-10', end: null };
    expect(rangeAfterClick(started, '2025-05-02', true)).toEqual({ start: '2025-05-02', end: '2025-05-10' });
    expect(rangeAfterClick(started, '2025-05-02')).toEqual({ start: '2025-05-02', end: null });
  });

  it('draws months Sunday first, with blanks for other months', () => {
    const may = monthWeeks('2025-05'); // May 1, 2025 is a Thursday
    expect(may[0]).toEqual([null, null, null, null, '2025-05-01', '2025-05-02', '2025-05-03']);
    expect(may.flat().filter(Boolean)).toHaveLength(31);
    expect(may.every((week) => week.length === 7)).toBe(true);
    expect(monthWeeks('2026-02').flat().filter(Boolean)).toHaveLength(28);
  });

  it('names months and days, and moves between months', () => {
    expect(monthTitle('2025-05')).toBe('May 2025');
    expect(dayLabel('2025-05-01')).toBe('Thursday, May 1, 2025');
    expect(addMonths('2025-12', 1)).toBe('2026-01');
    expect(addMonths('2025-01', -1)).toBe('2024-12');
    expect(addMonthsToDay('2024-01-31', 1)).toBe('2024-02-29');
  });

  it('keys move the focus by day, week, month and to the ends of the week', () => {
    expect(dayAfterKey('2025-05-01', 'ArrowRight')).toBe('2025-05-02');
    expect(dayAfterKey('2025-05-01', 'ArrowUp')).toBe('2025-04-24');
    expect(dayAfterKey('2025-05-31', 'PageDown')).toBe('2025-06-30');
    expect(dayAfterKey('2025-05-01', 'PageUp', true)).toBe('2024-05-01');
    expect(dayAfterKey('2025-05-01', 'Home')).toBe('2025-04-27');
    expect(dayAfterKey('2025-05-01', 'End')).toBe('2025-05-03');
    expect(dayAfterKey('2025-05-01', 'a')).toBeNull();
  });
});
