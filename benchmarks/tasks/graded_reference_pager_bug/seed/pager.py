def page(items, number, size=10):
    """The items on page `number` (pages count from 1), `size` per page."""
    if number < 1:
        raise ValueError("pages count from 1")
    start = (number - 1) * size
    end = start + size - 1
    return items[start:end]


def page_count(items, size=10):
    return (len(items) + size - 1) // size
