/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz/fuzz-entries.h"
#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/scenario.h"
#include "ns3/test.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Scenarios written as a hostile user would: every refusal is one printable line of at most 400
 * bytes whatever the file holds (line breaks, NUL, ESC, invalid UTF-8, megabytes of value), a
 * second YAML document is refused rather than ignored, and numbers and booleans must be written
 * as such (a quoted or !!str-tagged "8" is a string, and a hex float is not a decimal number), as
 * the schema says of wrong types.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// A valid scenario to which the cases add or change one thing.
const std::string BASE = "model:\n  preset: gpt2-small\ntraining:\n  global_batch_sequences: 64\n"
                         "  micro_batch: 4\nlayout:\n  tp: 2\n  dp: 8\ncluster:\n  gpus: 16\n";

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Wrong types are refused: quoted or tagged numbers and booleans, hex floats, a second document.
 */
class ScenarioStrictTypesTestCase : public TestCase
{
  public:
    ScenarioStrictTypesTestCase()
        : TestCase("Strict types: quoted numbers and booleans, !!str, hex floats, two documents")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(BASE, "s.yaml", scenario), "", "base");

        struct Case
        {
            std::string yaml;     //!< the scenario
            std::string expected; //!< the message
        };

        const std::vector<Case> cases = {
            {BASE + "network:\n  mtu: \"1024\"\n",
             "s.yaml: network.mtu: expected a positive integer, got the string '1024'"},
            {BASE + "network:\n  mtu: '1024'\n",
             "s.yaml: network.mtu: expected a positive integer, got the string '1024'"},
            {BASE + "network:\n  mtu: !!str 1024\n",
             "s.yaml: network.mtu: expected a positive integer, got the string '1024'"},
            {BASE + "network:\n  pfc: \"true\"\n",
             "s.yaml: network.pfc: expected true or false, got the string 'true'"},
            {BASE + "network:\n  pmax: \"0.5\"\n",
             "s.yaml: network.pmax: expected a number, got the string '0.5'"},
            {BASE + "network:\n  pmax: 0x1p-3\n",
             "s.yaml: network.pmax: expected a number, got '0x1p-3'"},
            {BASE + "network:\n  pmax: .inf\n",
             "s.yaml: network.pmax: expected a number, got '.inf'"},
            {BASE + "---\n", "s.yaml: a second YAML document (a scenario is one document)"},
            {BASE + "---\nnetwork:\n  mtu: 1024\n",
             "s.yaml: a second YAML document (a scenario is one document)"},
        };
        for (const Case& c : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(Scenario::LoadFromString(c.yaml, "s.yaml", scenario),
                                  c.expected,
                                  c.yaml);
        }
        // A broken second document is refused too (by the parser, at its line).
        std::string broken = Scenario::LoadFromString(BASE + "---\nfoo: [\n", "s.yaml", scenario);
        NS_TEST_EXPECT_MSG_EQ(broken.rfind("s.yaml: line ", 0), 0, broken);
        // Unquoted, the same values are accepted.
        NS_TEST_EXPECT_MSG_EQ(
            Scenario::LoadFromString(BASE + "network:\n  mtu: 1024\n  pfc: true\n  pmax: 0.125\n",
                                     "s.yaml",
                                     scenario),
            "",
            "plain values");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A scenario whose first token cannot start a value (a lone ","; found by the scenario fuzz
 * target as ",\xe3") is refused at once. With YAML::LoadAll, yaml-cpp 0.7 returned an empty
 * document there again and again and the load never ended, its memory growing (1.9 GB in 15 s
 * under the fuzzer). The load runs in a child process that an alarm ends after 5 s, so the old
 * code fails this test instead of hanging the runner.
 */
class ScenarioStuckParserTestCase : public TestCase
{
  public:
    ScenarioStuckParserTestCase()
        : TestCase("A token that cannot start a value: refused at once, not loaded forever")
    {
    }

  private:
    /**
     * @param yaml a scenario.
     * @return its message, or "(no answer)" if the load did not end within 5 s.
     */
    static std::string LoadInChild(const std::string& yaml)
    {
        return RunInChild(
            [&yaml]() {
                Scenario scenario;
                return Scenario::LoadFromString(yaml, "s.yaml", scenario);
            },
            5);
    }

    void DoRun() override
    {
        // The stuck token is the first one, at line 1, column 1.
        NS_TEST_EXPECT_MSG_EQ(LoadInChild(","),
                              "s.yaml: line 1, column 1: not YAML (nothing can start here)",
                              "a lone comma");
        NS_TEST_EXPECT_MSG_EQ(LoadInChild(",\xe3\x1a"),
                              "s.yaml: line 1, column 1: not YAML (nothing can start here)",
                              "the fuzzer's input");
        // One document still loads and two are still refused.
        NS_TEST_EXPECT_MSG_EQ(LoadInChild(BASE), "", "one document");
        NS_TEST_EXPECT_MSG_EQ(LoadInChild(BASE + "---\n"),
                              "s.yaml: a second YAML document (a scenario is one document)",
                              "two documents");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Whatever bytes a scenario holds, a refusal is one clean line of at most 400 bytes that still
 * names the file and the key.
 */
class ScenarioHostileBytesTestCase : public TestCase
{
  public:
    ScenarioHostileBytesTestCase()
        : TestCase("Hostile bytes: messages are one clean line of at most 400 bytes")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        const std::string huge(10 * 1024 * 1024, 'A'); // 10 MiB
        const std::string long1(200 * 1024, '7');      // 200 KiB
        const std::vector<std::pair<std::string, std::string>> cases = {
            // YAML escapes in a double-quoted value: a line break, NUL, ESC, DEL, a C1 control.
            {BASE + "network:\n  congestion_control: \"two\\nlines\"\n", "network."},
            {BASE + "network:\n  congestion_control: \"nul\\0esc\\e[31mred\\x7f\\x85\"\n",
             "network."},
            // Raw bytes: invalid UTF-8 (a stray continuation, an overlong form, a cut sequence).
            {BASE + "network:\n  congestion_control: ab\xff\xfe\xc0\xaf\xe2\x82\n", "network."},
            {BASE + "network:\n  congestion_control: " + huge + "\n", "network."},
            // yaml-cpp takes keys of at most 1024 bytes: a longer one is a syntax error.
            {BASE + "network:\n  " + long1 + ": 1\n", "line 12, "},
            {BASE + "network:\n  \"bad\\e[2Jkey\\nwith lines\": 1\n", "network."},
            {BASE + "collectives:\n  all_reduce: \"x\\ny\"\n", "collectives."},
            {BASE + "network:\n  mtu: " + long1 + "\n", "network.mtu"},
        };
        for (const auto& [yaml, key] : cases)
        {
            std::string message = Scenario::LoadFromString(yaml, "s.yaml", scenario);
            NS_TEST_EXPECT_MSG_EQ(message.empty(), false, "refused");
            NS_TEST_EXPECT_MSG_EQ(fuzz::CheckMessageLine(message),
                                  "",
                                  "one clean line: " << message);
            NS_TEST_EXPECT_MSG_EQ(message.rfind("s.yaml: " + key, 0), 0, "names it: " << message);
        }
        // A file name with a line break and invalid UTF-8 is escaped too.
        std::string message =
            Scenario::LoadFromString(BASE + "bogus: 1\n", "odd\nname\xff.yaml", scenario);
        NS_TEST_EXPECT_MSG_EQ(fuzz::CheckMessageLine(message), "", message);
        NS_TEST_EXPECT_MSG_EQ(message.rfind("odd\\nname\\xff.yaml: bogus: unknown section", 0),
                              0,
                              message);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Scenarios written as a hostile user would.
 */
class ScenarioHostileTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    ScenarioHostileTestSuite()
        : TestSuite("llm-fabric-scenario-hostile", Type::UNIT)
    {
        AddTestCase(new ScenarioStrictTypesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioHostileBytesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ScenarioStuckParserTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static ScenarioHostileTestSuite g_scenarioHostileTestSuite;

} // namespace tests
} // namespace llmfabric
