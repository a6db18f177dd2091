"""Merge busy slots of several calendars."""


def merge_intervals(intervals):
    result: list[tuple[int, int]] = []
    for start, end in sorted(intervals):
        if result and start < result[-1][1]:
            prev_start, prev_end = result[-1]
            result[-1] = (prev_start, max(prev_end, end))
        else:
            result.append((start, end))
    return result
