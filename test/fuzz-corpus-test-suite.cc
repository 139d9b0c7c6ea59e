/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz/fuzz-entries.h"
#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * The fuzz targets' plain-runner mode: every file of the seed corpora in test/fuzz-corpus/TARGET/
 * (the shipped scenarios, hostile inputs, captured header bytes, typical and hostile command
 * lines, and every input a fuzzer found a defect with) is given to the entry function the
 * libFuzzer program of that target calls (test/fuzz/fuzz-entries.h), in the ordinary build, and
 * every invariant must hold. The checker of one-line messages is tested first, on lines that
 * break each of its rules, so that a corpus passing it means something.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param target a fuzz target.
 * @return the paths of its seed files, sorted.
 */
std::vector<std::string>
CorpusFiles(const std::string& target)
{
    std::string folder = std::string(LLM_FABRIC_SOURCE_DIR) + "/test/fuzz-corpus/" + target;
    std::vector<std::string> files;
    DIR* dir = opendir(folder.c_str());
    while (dir != nullptr)
    {
        dirent* e = readdir(dir);
        if (e == nullptr)
        {
            break;
        }
        std::string name = e->d_name;
        if (name != "." && name != "..")
        {
            files.push_back(folder + "/" + name);
        }
    }
    if (dir != nullptr)
    {
        closedir(dir);
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// An entry function of a fuzz target.
using Entry = std::string (*)(const uint8_t* data, std::size_t size);

} // namespace

/**
 * @ingroup llm-fabric-tests
 * CheckMessageLine refuses each thing a message must not be.
 */
class FuzzMessageLineTestCase : public TestCase
{
  public:
    FuzzMessageLineTestCase()
        : TestCase("The message checker refuses line breaks, controls, bad UTF-8, 401 bytes")
    {
    }

  private:
    void DoRun() override
    {
        using ::llmfabric::fuzz::CheckMessageLine;
        NS_TEST_EXPECT_MSG_EQ(CheckMessageLine(""), "", "empty");
        // "é" (C3 A9) and "€" (E2 82 AC) are valid UTF-8; U+00A0 (C2 A0) is not a C1 control.
        NS_TEST_EXPECT_MSG_EQ(CheckMessageLine("f: k: caf\xC3\xA9 \xE2\x82\xAC \xC2\xA0"),
                              "",
                              "valid UTF-8");
        NS_TEST_EXPECT_MSG_EQ(CheckMessageLine(std::string(400, 'a')), "", "400 bytes");
        // (message, why the checker must refuse it)
        const std::vector<std::pair<std::string, std::string>> refused = {
            {std::string(401, 'a'), "401 bytes"},
            {"a\nb", "line feed"},
            {std::string("a\0b", 3), "NUL"},
            {"a\x1b[31m", "ESC"},
            {"a\x7f", "DEL"},
            {"a\xC2\x85", "C1 NEL (U+0085)"},
            {"a\xff", "0xFF is never UTF-8"},
            {"a\xC3", "a cut character"},
            {"a\xC0\xAF", "an overlong '/'"},
        };
        for (const auto& [message, why] : refused)
        {
            NS_TEST_EXPECT_MSG_NE(CheckMessageLine(message), "", why);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Every seed of one target keeps every invariant of its entry function.
 */
class FuzzCorpusTestCase : public TestCase
{
  public:
    /**
     * @param target the target (a folder of test/fuzz-corpus).
     * @param entry its entry function.
     * @param minimum the least number of seeds the folder must hold (a lost corpus fails).
     */
    FuzzCorpusTestCase(const std::string& target, Entry entry, std::size_t minimum)
        : TestCase("Seed corpus of the " + target + " fuzz target keeps its invariants"),
          m_target(target),
          m_entry(entry),
          m_minimum(minimum)
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::string> files = CorpusFiles(m_target);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(files.size(), m_minimum, "seeds of " << m_target);
        for (const auto& file : files)
        {
            std::ifstream in(file, std::ios::binary);
            std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
            NS_TEST_EXPECT_MSG_EQ(m_entry(bytes.data(), bytes.size()), "", file);
        }
    }

    std::string m_target;  //!< the target
    Entry m_entry;         //!< its entry function
    std::size_t m_minimum; //!< the least number of seeds
};

/**
 * @ingroup llm-fabric-tests
 * The plain-runner mode of the fuzz targets.
 */
class FuzzCorpusTestSuite : public TestSuite
{
  public:
    FuzzCorpusTestSuite()
        : TestSuite("llm-fabric-fuzz-corpus", Type::UNIT)
    {
        AddTestCase(new FuzzMessageLineTestCase, ns3::llmfabric::TEST_QUICK);
        // The minimums are the seeds written with the targets (scenario 30, headers 28,
        // options 26), less a margin: fewer means the corpus was lost, not pruned.
        AddTestCase(new FuzzCorpusTestCase("scenario", &::llmfabric::fuzz::FuzzScenario, 20),
                    ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FuzzCorpusTestCase("headers", &::llmfabric::fuzz::FuzzHeaders, 20),
                    ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FuzzCorpusTestCase("options", &::llmfabric::fuzz::FuzzOptions, 20),
                    ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FuzzCorpusTestSuite g_fuzzCorpusTestSuite;

} // namespace tests
} // namespace llmfabric
