"""The mutation tool's own test: the mutants each operator makes of a small hole, every
step of every reference mutated, and the verdicts read from a grader's report."""

import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, sys.argv.pop(1))  # common/tools/mutate
SOURCE = pathlib.Path(sys.argv.pop(1))  # the workbook
import mutants  # noqa: E402
import mutate  # noqa: E402

HOLE = """__global__ void k(const float* in, float* out, int rows) {
  //! [step 1 hole]
  for (int row = threadIdx.x; row < kTileRows; row += kThreads) {  // rows 256 apart
    wb::cp_async(&tile[layout(row, 0)], &in[row]);
  }
  wb::cp_async_wait_all();
  __syncthreads();
  //! [step 1 hole]
  out[threadIdx.x] = tile[threadIdx.x];
}
"""


def changes(text):
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as file:
        file.write(text)
    return {(m.operator, m.before, m.after) for m in mutants.mutants_of(file.name)}


class Operators(unittest.TestCase):
    def setUp(self):
        self.changes = changes(HOLE)
        self.loop = "for (int row = threadIdx.x; row < kTileRows; row += kThreads) {  // rows 256 apart"

    def test_each_operator(self):
        expected = {
            ("relation", self.loop, self.loop.replace("row < kTileRows", "row <= kTileRows")),
            ("loop_start", self.loop, self.loop.replace("= threadIdx.x", "= 0")),
            ("loop_step", self.loop, self.loop.replace("+= kThreads", "+= 1")),
            ("exchange", self.loop, self.loop.replace("kTileRows", "kTileCols")),
            ("left_out", "wb::cp_async_wait_all();", "(left out)"),
            ("left_out", "__syncthreads();", "(left out)"),
            ("moved", "wb::cp_async_wait_all();\n__syncthreads();", "__syncthreads();\nwb::cp_async_wait_all();"),
            ("moved", "}\nwb::cp_async_wait_all();", "wb::cp_async_wait_all();\n}"),
            ("arguments", "wb::cp_async(&tile[layout(row, 0)], &in[row]);",
             "wb::cp_async(&tile[layout(0, row)], &in[row]);"),
            ("index", "wb::cp_async(&tile[layout(row, 0)], &in[row]);",
             "wb::cp_async(&tile[layout(row, 0)], &in[row + 1]);"),
        }
        self.assertLessEqual(expected, self.changes)

    def test_only_the_hole_and_never_a_comment(self):
        for _, before, after in self.changes:
            self.assertNotIn("out[threadIdx.x]", before)
            if "//" in after:
                self.assertTrue(after.endswith("// rows 256 apart"), after)
        self.assertFalse(any("257" in after or "255" in after for _, _, after in self.changes))

    def test_no_declaration_renamed(self):
        self.assertFalse(any(after.startswith("for (int col") for _, _, after in self.changes))

    def test_every_step_of_every_reference(self):
        for folder in sorted((SOURCE / "solutions").iterdir()):
            steps_of_holes, steps_mutated = set(), set()
            for kernel in folder.glob("*.cu"):
                steps_of_holes |= set(mutants.HOLE.findall(kernel.read_text()))
                steps_mutated |= {m.step for m in mutants.mutants_of(str(kernel))}
            self.assertEqual(steps_of_holes, steps_mutated, folder.name)


class Verdicts(unittest.TestCase):
    def report(self, *lines):
        return "Steps ...\n\nFirst problem, step 1: copy:\nChapter 1, step 1 (copy) ...:\n" + "\n".join(lines) + \
            "\nHint: TODO(step 1)\n"

    def test_verdicts(self):
        self.assertEqual(mutate.verdict("all passed", 0), "survived")
        self.assertEqual(mutate.verdict(self.report("3 of 8 elements are wrong", "Likely cause: a bound."), 1), "cause")
        self.assertEqual(mutate.verdict(self.report("3 of 8 elements are wrong", "Observed: some elements."), 1),
                         "evidence")
        self.assertEqual(mutate.verdict(self.report("the kernel failed: copy.cu:3: a race"), 1), "evidence")
        self.assertEqual(mutate.verdict(self.report("cp.async global reads: 16.0 sectors per request ... The step "
                                                    "asks for at most 4.2"), 1), "cause")


if __name__ == "__main__":
    unittest.main()
