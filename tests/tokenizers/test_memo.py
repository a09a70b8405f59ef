"""``evalfw.tokenizers.base.memo``: a function's results kept by argument tuple, computed once
each, forgotten all at once past ``maxsize``, and ``cache_clear`` as functools has it."""

from __future__ import annotations

from evalfw.tokenizers.base import memo


def test_results_are_kept_bounded_and_cleared():
    calls: list[tuple[int, int]] = []

    @memo(3)
    def add(a: int, b: int) -> int:
        """Adds."""
        calls.append((a, b))
        return a + b

    assert [add(1, 2), add(1, 2), add(2, 1)] == [3, 3, 3]
    assert calls == [(1, 2), (2, 1)]
    for i in range(10):
        assert add(i, i) == 2 * i
    assert len(calls) == 12
    add(9, 9)  # still kept: the cache holds at most 3 and was emptied before (9, 9) went in
    assert len(calls) == 12
    add.cache_clear()
    add(9, 9)
    assert len(calls) == 13
    assert add.__name__ == "add" and add.__doc__ == "Adds."


def test_none_is_a_result_like_any_other():
    calls = []

    @memo()
    def nothing(x: str) -> None:
        calls.append(x)

    assert nothing("a") is None and nothing("a") is None
    assert calls == ["a"]
