// The comparison of nvcc's PTX with the simulator's launch log (common/tools/ptx_widths):
// the kinds of copy found in PTX text and in a log, and each way the two can differ.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "copy_kinds.hpp"

namespace {

using wb::tools::CopyKinds;

// Kernels as nvcc writes them: one with a helper function that issues a 16-byte copy,
// one with 4-byte copies, a bulk copy and the instructions that are no copies, one that
// calls a helper over several lines.
const char* const kPtx = R"(
.func _Z4loadPfPKf(
	.param .b64 _Z4loadPfPKf_param_0
)
{
	cp.async.cg.shared.global [%r1], [%rd1], 16, 16;
	ret;
}
.visible .entry _Z5firstPKfPf(
	.param .u64 _Z5firstPKfPf_param_0
)
{
	call.uni _Z4loadPfPKf, (param0);
	cp.async.commit_group;
	cp.async.wait_group 0;
	ret;
}
.entry _ZN4ch0743_GLOBAL__N__f145aefc_10_library_cu_238e594a6secondEPKfPf(
	.param .u64 param_0
)
{
	cp.async.ca.shared.global [%r2], [%rd2], 4, 4;
	cp.async.mbarrier.arrive.shared.b64 [%r3];
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd4], %r5, [%r6];
	ret;
}
.func _Z5edgesPf(
	.param .b64 _Z5edgesPf_param_0
)
{
	cp.async.ca.shared.global [%r1], [%rd1], 4, %r2;
	ret;
}
.visible .entry _Z5thirdPf(
	.param .u64 p
)
{
	{ // callseq 0, 0
	.param .b64 param0;
	call.uni 
	_Z5edgesPf, 
	(
	param0
	);
	} // callseq 0
	cp.async.cg.shared.global [%r1], [%rd1], 16;
	ret;
}
.visible .entry _Z5plainPf(
	.param .u64 p
)
{
	ret;
}
)";

const std::string kLogHeader =
    "# kernel\tblocks\tthreads\tcp_async_4\tcp_async_8\tcp_async_16\tbarriers\tbulk_copies\ttensor_copies\n";

TEST(PtxWidths, FindsEachKernelsCopiesTheCallsIncluded) {
  const CopyKinds kinds = wb::tools::copy_kinds_in_ptx(kPtx);
  ASSERT_EQ(kinds.size(), 4u);
  // A call as nvcc writes one to a function it keeps out of line: over several lines.
  EXPECT_EQ(kinds.at("third(float*)"), (std::set<std::string>{"4", "16"}));
  EXPECT_EQ(kinds.at("first(float const*, float*)"), (std::set<std::string>{"16"}));
  EXPECT_EQ(kinds.at("ch07::(anonymous namespace)::second(float const*, float*)"),
            (std::set<std::string>{"4", "bulk"}));
  EXPECT_TRUE(kinds.at("plain(float*)").empty());
}

TEST(PtxWidths, ReadsTheKindsOfALaunchLogByItsHeader) {
  const CopyKinds kinds = wb::tools::copy_kinds_in_launch_log(kLogHeader + "k(int)\t1\t32\t0\t0\t8\t1\t0\t0\n" +
                                                             "k(int)\t1\t32\t4\t0\t0\t1\t0\t0\n");
  EXPECT_EQ(kinds.at("k(int)"), (std::set<std::string>{"4", "16"}));
  EXPECT_THROW(wb::tools::copy_kinds_in_launch_log("k(int)\t1\t32\n"), std::runtime_error);
}

TEST(PtxWidths, AgreementHasNoDifference) {
  const CopyKinds ptx{{"k()", {"4", "16"}}, {"plain()", {}}};
  EXPECT_TRUE(wb::tools::compare_copy_kinds(ptx, {{"k()", {"4", "16"}}}, {}).empty());
}

TEST(PtxWidths, AWidthTheSimulatorInventedIsADifference) {
  const auto differences = wb::tools::compare_copy_kinds({{"k()", {"4"}}}, {{"k()", {"16"}}}, {});
  ASSERT_EQ(differences.size(), 2u);
  EXPECT_NE(differences[0].find("the simulator issued copies of kind 16, which nvcc's PTX of it does not have"),
            std::string::npos)
      << differences[0];
  EXPECT_NE(differences[1].find("nvcc's PTX has copies of kind 4 that the simulator never issued"), std::string::npos)
      << differences[1];
}

TEST(PtxWidths, AnUntakenBranchIsAllowedOnlyWhereNamed) {
  const CopyKinds ptx{{"gemm(int)", {"4", "16"}}};
  const CopyKinds simulated{{"gemm(int)", {"16"}}};
  EXPECT_EQ(wb::tools::compare_copy_kinds(ptx, simulated, {}).size(), 1u);
  EXPECT_TRUE(wb::tools::compare_copy_kinds(ptx, simulated, {{"gemm", "4"}}).empty());
  // Never beyond what the PTX has: the simulator's kinds stay a subset of it.
  EXPECT_EQ(wb::tools::compare_copy_kinds(ptx, {{"gemm(int)", {"8"}}}, {{"gemm", "4"}, {"gemm", "16"}}).size(), 1u);
}

TEST(PtxWidths, AnUnneededUntakenEntryAndAnUnlaunchedKernelAreDifferences) {
  const auto unneeded = wb::tools::compare_copy_kinds({{"k()", {"4"}}}, {{"k()", {"4"}}}, {{"k", "4"}});
  ASSERT_EQ(unneeded.size(), 1u);
  EXPECT_NE(unneeded[0].find("is not needed"), std::string::npos) << unneeded[0];
  const auto unlaunched = wb::tools::compare_copy_kinds({{"k()", {"4"}}}, {}, {});
  ASSERT_EQ(unlaunched.size(), 1u);
  EXPECT_NE(unlaunched[0].find("the grader never launched it"), std::string::npos) << unlaunched[0];
  const auto unknown = wb::tools::compare_copy_kinds({}, {{"k()", {"4"}}}, {});
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_NE(unknown[0].find("nvcc's PTX has no kernel of that name"), std::string::npos) << unknown[0];
}

}  // namespace
