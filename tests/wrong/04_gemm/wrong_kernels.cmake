# Known-wrong versions of chapter 4's solution (filled below).
