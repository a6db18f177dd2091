"""The benchmark grid: pytest-ponybench parametrizes `ponybench_cell` over tasks x arms x
models x runs and runs each cell in the fixture; this test asserts the outcome."""


def test_cell(ponybench_cell):
    ponybench_cell.assert_passed()
