/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_FABRIC_TEST_UTIL_H
#define LLM_FABRIC_TEST_UTIL_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/trailer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

/**
 * @defgroup llm-fabric-tests llm-fabric tests
 * @ingroup llm-fabric
 * Test suites of the llm-fabric module and the small utilities they share.
 */

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * Record that a test case skipped its checks, and why (a missing tool or data folder). The
 * standalone runner counts such a case as skipped instead of passed; inside an ns-3 tree the
 * reason is printed and the case passes, as ns-3's own framework has no skip verdict.
 * @param caseName the name of the test case (TestCase::GetName()).
 * @param reason why it was skipped.
 */
void ReportSkip(const std::string& caseName, const std::string& reason);

/**
 * @ingroup llm-fabric-tests
 * @return the (case name, reason) pairs recorded by ReportSkip in this process.
 */
const std::vector<std::pair<std::string, std::string>>& GetSkippedCases();

/**
 * @ingroup llm-fabric-tests
 * The shared test data folder: $LLM_FABRIC_DATA_DIR if set, else ../shared/data next to the
 * project's source folder.
 * @return the folder, or an empty string if it does not exist.
 */
std::string GetSharedDataDir();

/**
 * @ingroup llm-fabric-tests
 * GetSharedDataDir, reporting a skip for the test case when the folder is absent.
 * @param caseName the test case that needs the folder.
 * @return the folder, or "" (the skip reported).
 */
std::string FindSharedDataDir(const std::string& caseName);

/**
 * @ingroup llm-fabric-tests
 * @param program a program name such as "tshark".
 * @return true if the program is found on $PATH.
 */
bool HaveProgram(const std::string& program);

/**
 * @ingroup llm-fabric-tests
 * Where an example program is: beside the test runner in the standalone build; in an ns-3 tree,
 * build/contrib/llm-fabric/examples/ns3.<version>-<name>[-<profile>] next to build/utils/.
 * @param name the program's name.
 * @return its path, or "" if it is not found.
 */
std::string FindProgram(const std::string& name);

/**
 * @ingroup llm-fabric-tests
 * FindProgram, reporting a skip for the test case when the program is not found.
 * @param name the program's name.
 * @param caseName the test case that needs it.
 * @return its path, or "" (the case was reported skipped).
 */
std::string FindExample(const std::string& name, const std::string& caseName);

/**
 * @ingroup llm-fabric-tests
 * Run a shell command and capture its standard output.
 * @param command the command line (run by /bin/sh).
 * @param[out] exitStatus the command's exit status (-1 if it could not be started).
 * @return what the command wrote to standard output.
 */
std::string RunCommand(const std::string& command, int& exitStatus);

/**
 * @ingroup llm-fabric-tests
 * @param path a file.
 * @return its bytes ("" if it cannot be read).
 */
std::string ReadBytes(const std::string& path);

/**
 * @ingroup llm-fabric-tests
 * Read a CSV file (no quoting: the module's CSV files quote nothing).
 * @param path the file.
 * @return its lines, each split at commas (the header line first); empty if it cannot be read.
 */
std::vector<std::vector<std::string>> ReadCsv(const std::string& path);

/**
 * @ingroup llm-fabric-tests
 * Run a function in a child process, for a regression test of code that used to hang or abort:
 * the test then fails instead of stopping the runner.
 * @param work what to run; its result is sent back.
 * @param seconds the child is ended (an alarm) after this long.
 * @return the function's result, or "(no answer)" if the child did not end normally in time.
 */
std::string RunInChild(const std::function<std::string()>& work, unsigned seconds);

/**
 * @ingroup llm-fabric-tests
 * @param hex hexadecimal digits; spaces, colons and dashes are ignored.
 * @return the bytes they spell.
 */
std::vector<uint8_t> HexToBytes(const std::string& hex);

/**
 * @ingroup llm-fabric-tests
 * @param hex hexadecimal digits, as for HexToBytes.
 * @return a packet whose content is the bytes they spell.
 */
ns3::Ptr<ns3::Packet> PacketFromHex(const std::string& hex);

/**
 * @ingroup llm-fabric-tests
 * @param bytes some bytes.
 * @return them as lower-case hexadecimal without separators.
 */
std::string BytesToHex(const std::vector<uint8_t>& bytes);

/**
 * @ingroup llm-fabric-tests
 * @param packet a packet.
 * @return its serialized bytes (headers, payload and trailers, in wire order).
 */
std::vector<uint8_t> PacketBytes(ns3::Ptr<const ns3::Packet> packet);

/**
 * @ingroup llm-fabric-tests
 * The small dense model of the tests' training scenarios, as scenario YAML: hidden size 256, 4
 * heads, FFN 1024, vocabulary 1000, sequences of 128 tokens.
 * @param layers its transformer layers.
 * @return the "model:" section.
 */
std::string SmallDenseModelYaml(uint32_t layers);

/**
 * @ingroup llm-fabric-tests
 * The cluster of the tests' jobs across leaves, as scenario YAML: 8 H100 GPUs in 4 servers of
 * 2, one server per leaf of a leaf-spine fabric, so that a group of the 8 ranks crosses leaves.
 * @param spines the spine switches (each leaf's equal-cost uplinks).
 * @return the "cluster:" and "topology:" sections.
 */
std::string CrossLeafClusterYaml(uint32_t spines);

/**
 * @ingroup llm-fabric-tests
 * @param header a header.
 * @return the bytes it serializes to, on its own.
 */
std::vector<uint8_t> HeaderBytes(const ns3::Header& header);

/**
 * @ingroup llm-fabric-tests
 * @param trailer a trailer.
 * @return the bytes it serializes to, on its own.
 */
std::vector<uint8_t> TrailerBytes(const ns3::Trailer& trailer);

} // namespace tests
} // namespace llmfabric

#endif /* LLM_FABRIC_TEST_UTIL_H */
