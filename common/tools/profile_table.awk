# profile_table.awk: `make profile-chapterN`'s table. Reads two files:
#   ARGV[1]  Nsight Compute's raw page as CSV (`ncu --import R --page raw --csv
#            --print-units base`): a header row of metric names, a row of units, then
#            one row per profiled launch; or an empty file where no GPU profile was made;
#   ARGV[2]  the simulator's launch log (WB_SIM_LAUNCH_LOG, common/sim/src/launch_log.cpp):
#            one tab-separated line per launch; or an empty file.
# and prints, kernel by kernel, what the GPU measured beside what the simulator counted.
# The two runs have different sizes: the rows are ratios (per request, per launch), which
# do not depend on them, and counts only where the row says so.
# Kernels are matched by their name without namespaces, parameters or casts in template
# arguments, since nvcc's and g++'s demangled names differ in those
# ("void unnamed>::column_sums_kernel<0>(const float *, ...)" on the GPU, as ncu 2025 prints it,
# "ch02::(anonymous namespace)::column_sums_kernel<0>(float const*, ...)" in the simulator).
# POSIX awk only (Debian's default awk is mawk).

# Splits one CSV line into out[1..n]: fields in double quotes may hold commas and "".
function split_csv(line, out,    n, i, c, field, quoted, len) {
  n = 0; field = ""; quoted = 0; len = length(line)
  for (i = 1; i <= len; i++) {
    c = substr(line, i, 1)
    if (quoted) {
      if (c == "\"") {
        if (substr(line, i + 1, 1) == "\"") { field = field "\""; i++ } else quoted = 0
      } else field = field c
    } else if (c == "\"") quoted = 1
    else if (c == ",") { out[++n] = field; field = "" }
    else field = field c
  }
  out[++n] = field
  return n
}

# "void ns::(anonymous namespace)::name<(int)0, 1u>(float const*, int)" -> "name<0,1>"
function kernel_key(name,    k, i, c, depth, cut, n) {
  k = name
  sub(/^void /, "", k)
  # The parameter list: the parenthesised group that ends the name.
  if (substr(k, length(k), 1) == ")") {
    depth = 0
    for (i = length(k); i > 0; i--) {
      c = substr(k, i, 1)
      if (c == ")") depth++
      else if (c == "(" && --depth == 0) break
    }
    if (i > 1) k = substr(k, 1, i - 1)
  }
  # The namespaces: everything up to the last "::" outside template brackets.
  # (ncu itself cuts some names short, "unnamed>::name<0>" for "ch02::<unnamed>::name<0>":
  # a ">" with no "<" before it closes nothing.)
  depth = 0; cut = 0; n = length(k)
  for (i = 1; i < n; i++) {
    c = substr(k, i, 1)
    if (c == "<") depth++
    else if (c == ">" && depth > 0) depth--
    else if (depth == 0 && c == ":" && substr(k, i + 1, 1) == ":") cut = i + 1
  }
  if (cut > 0) k = substr(k, cut + 1)
  gsub(/\([a-z_ ]+\)/, "", k)           # casts in template arguments: (int)0 -> 0
  gsub(/ /, "", k)
  while (match(k, /[0-9][uUlL]+[,>]/))  # integer suffixes: 1u -> 1
    k = substr(k, 1, RSTART) substr(k, RSTART + RLENGTH - 1)
  return k
}

function number(text) {
  gsub(/,/, "", text)  # thousands separators (the run is made with LC_ALL=C)
  return text + 0
}

function remember(key) {
  if (!(key in known)) { known[key] = 1; order[++kernels] = key }
}

function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }

# Sum of GPU metric m over the kernel's launches, and whether it was measured.
function gsum(k, m) { return ((k SUBSEP m) in gtotal) ? gtotal[k, m] : "" }
function gmean(k, m) { return ((k SUBSEP m) in gtotal) ? gtotal[k, m] / gseen[k, m] : "" }
function gratio(k, a, b) {
  if (gsum(k, a) == "" || gsum(k, b) == "") return "-"
  return ratio(gtotal[k, a], gtotal[k, b])
}

# The simulator's requests of access kind `base` (column of its request count).
function sratio(k, base,    requests, transactions, ideal, text) {
  if (!((k SUBSEP base) in stotal)) return "-"
  requests = stotal[k, base]; transactions = stotal[k, base + 1]; ideal = stotal[k, base + 2]
  if (requests == 0) return "-"
  text = ratio(transactions, requests)
  if (transactions > ideal) text = text " (ideal " ratio(ideal, requests) ")"
  return text
}
function sconflicts(k, base,    requests) {
  if (!((k SUBSEP base) in stotal)) return "-"
  requests = stotal[k, base]
  return requests > 0 ? ratio(stotal[k, base + 1] - stotal[k, base + 2], requests) : "-"
}

# A row of both sides; sim "" for what only a GPU measures (time, stalls).
function row(label, gpu, sim) {
  if (gpu == "-" && (sim == "-" || sim == "")) return
  if (sim == "") printf "  %-46s %s\n", label, gpu
  else printf "  %-46s %-24s %s\n", label, gpu, sim
}

FILENAME == ARGV[1] {
  n = split_csv($0, field)
  if (!header_seen) {
    for (i = 1; i <= n; i++) if (field[i] == "Kernel Name") { header_seen = 1; name_column = i }
    if (header_seen) for (i = 1; i <= n; i++) column[i] = field[i]
    columns = n
    next
  }
  if (field[1] !~ /^[0-9]+$/) next  # the units row
  key = kernel_key(field[name_column])
  remember(key)
  glaunches[key]++
  for (i = 1; i <= n && i <= columns; i++) {
    if (column[i] !~ /__/ || field[i] == "" || field[i] == "n/a") continue
    gtotal[key, column[i]] += number(field[i])
    gseen[key, column[i]]++
  }
  next
}

FILENAME == ARGV[2] {
  if ($0 ~ /^#/ || $0 == "") next
  n = split($0, field, "\t")
  key = kernel_key(field[1])
  remember(key)
  slaunches[key]++
  for (i = 2; i <= n; i++) stotal[key, i] += field[i]
  next
}

END {
  if (kernels == 0) { print "  (no launch of the chapter's kernels was recorded)"; exit }
  for (o = 1; o <= kernels; o++) {
    k = order[o]
    print ""
    printf "%-48s %-24s %s\n", k, "GPU (ncu)", "simulator"
    row("launches", (k in glaunches) ? glaunches[k] : "-", (k in slaunches) ? slaunches[k] : "-")
    t = gmean(k, "gpu__time_duration.sum")
    row("time of a launch", t == "" ? "-" : sprintf("%.3f ms", t / 1e6), "")
    bw = gmean(k, "dram__bytes.sum.per_second"); pct = gmean(k, "dram__throughput.avg.pct_of_peak_sustained_elapsed")
    text = bw == "" ? "" : sprintf("%.0f GB/s", bw / 1e9)
    if (pct != "") text = text (text == "" ? "" : " ") sprintf("(%.0f%% of peak)", pct)
    row("DRAM throughput", text == "" ? "-" : text, "")
    # Columns of the simulator's log: 4 shared loads, 7 shared stores, 10 global loads,
    # 13 global stores, 16 cp.async global reads (requests, transactions, ideal each).
    row("shared loads: wavefronts per request",
        gratio(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum"),
        sratio(k, 4))
    row("shared stores: wavefronts per request",
        gratio(k, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum"),
        sratio(k, 7))
    row("shared loads: bank conflicts per request",
        gratio(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum"),
        sconflicts(k, 4))
    row("shared stores: bank conflicts per request",
        gratio(k, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum"),
        sconflicts(k, 7))
    row("global loads: sectors per request",
        gratio(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        sratio(k, 10))
    row("global stores: sectors per request",
        gratio(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
        sratio(k, 13))
    row("cp.async global reads: sectors per request",
        gratio(k, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum"),
        sratio(k, 16))
    g = gsum(k, "smsp__inst_executed_op_ldgsts.sum")
    s = "-"
    if ((k SUBSEP 16) in stotal && stotal[k, 16] > 0) {
      s = stotal[k, 16] " (copies of 4/8/16 B: " stotal[k, 22] "/" stotal[k, 23] "/" stotal[k, 24] ")"
    }
    row("cp.async: warp instructions (a count)", g == "" ? "-" : sprintf("%.0f", g), s)
    # The three largest stall reasons, in warps stalled per issued instruction.
    stalls = ""
    for (m = 1; m <= columns; m++) used[m] = 0
    for (pick = 1; pick <= 3; pick++) {
      best = 0; best_value = 0
      for (m = 1; m <= columns; m++) {
        if (used[m] || column[m] !~ /^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$/) continue
        v = gmean(k, column[m])
        if (v != "" && v > best_value) { best = m; best_value = v }
      }
      if (best == 0 || best_value < 0.05) break
      used[best] = 1
      reason = column[best]
      sub(/^smsp__average_warps_issue_stalled_/, "", reason); sub(/_per_issue_active\.ratio$/, "", reason)
      stalls = stalls (stalls == "" ? "" : ", ") reason " " sprintf("%.2f", best_value)
    }
    row("stalls (warps per issued instruction)", stalls == "" ? "-" : stalls, "")
  }
}
