# Known-wrong versions of chapter 6's solution, each one mistake a learner makes, with
# the diagnosis the grader must give. Each is the solution with FIND replaced by REPLACE
# (every occurrence).
