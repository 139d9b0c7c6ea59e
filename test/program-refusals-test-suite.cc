/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz/fuzz-entries.h"
#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Every program refuses bad command-line values with one line on its output, "program:
 * --option: reason", of at most 400 bytes without control bytes, and exit status 2 (ns-3's
 * CommandLine printed a 30-line usage with status 1, took "1e6" as 1 and "8abc" as 8, wrapped
 * "-1", and aborted on --PrintAttributes=bogus, a malformed attribute value or a pcap prefix in a
 * missing folder).
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * The programs' refusals.
 */
class ProgramRefusalsTestCase : public TestCase
{
  public:
    ProgramRefusalsTestCase()
        : TestCase("Every program: a bad option is one line and exit status 2")
    {
    }

  private:
    void DoRun() override
    {
        const std::string scenario =
            std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios/gpt2-small-16gpu.yaml";
        const std::string out = CreateTempDirFilename("refusals");
        // Refused by every program: an unknown option, a bogus listing, malformed or wrapping
        // attribute values, a word where an option belongs.
        const std::vector<std::string> common = {"--zzz=1",
                                                 "--PrintAttributes=bogus",
                                                 "--PrintGroup=bogus",
                                                 "--ns3::Dcqcn::G=abc",
                                                 "--ns3::SwitchMmu::Buffer=5GB",
                                                 "--ns3::RdmaQueuePair::Mtu=1000.5",
                                                 "--ns3::NoSuch::Thing=1",
                                                 "positional"};

        struct Program
        {
            std::string name;              //!< the program
            std::string base;              //!< arguments it needs
            std::vector<std::string> bads; //!< its own bad options
        };

        const std::vector<Program> programs = {
            {"llm-fabric-incast",
             "--outDir=" + out,
             {"--bytes=1e6",
              "--bytes=-1",
              "--senders=8abc",
              "--mtu=1000.5",
              "--linkRate=100",
              "--linkDelay=-1us",
              "--linkDelay=abc",
              "--sampleInterval=abc",
              "--bufferSize=5GB",
              "--kmin=4294967296B",
              "--pcap=/nonexistent-llm-fabric/p",
              "--RngRun=3",
              "--seed=1e3",
              "--pmax=7"}},
            {"llm-fabric-train",
             "--scenario=" + scenario + " --outDir=" + out,
             {"--iterations=2.5",
              "--iterations=-1",
              "--mtu=1000.5",
              "--seed=abc",
              "--bufferSize=5GB",
              "--pcap=/nonexistent-llm-fabric/p",
              "--RngSeed=2"}},
            {"llm-fabric-leaf-spine",
             "--outDir=" + out,
             {"--flows=1e3", "--hostRate=100", "--duration=abc", "--load=0x1p-1"}},
            {"llm-fabric-pfc-incast",
             "--outDir=" + out,
             {"--senders=-4", "--linkRate=10", "--pcap=/nonexistent-llm-fabric/p", "--pmax=-0.5"}},
            {"llm-fabric-pfc-hol", "--outDir=" + out, {"--incastBytes=4e6", "--hostRate=1"}},
            {"llm-fabric-wire-formats",
             "--pcap=" + out + "/w.pcap",
             {"--bytes=3e3", "--psn=-1", "--pcap=/nonexistent-llm-fabric/w.pcap"}},
            {"llm-fabric-traffic-report",
             "--scenario=" + scenario,
             {"--scenario=/nonexistent-llm-fabric/s.yaml", "--ranks=\x1b[2J"}},
            {"llm-fabric-dante", "", {"--mtu=1024.5"}},
            {"llm-fabric-cc-compare",
             "--outDir=" + out,
             {"--duration=2", "--incastSenders=1.5", "--ccs=bogus"}},
            {"llm-fabric-bench-fabric", "", {"--flows=1e2", "--bytes=-5"}},
            {"llm-fabric-replay",
             "--outDir=" + out,
             {"--ackInterval=0",
              "--ackInterval=1.5",
              "--mtu=100",
              "--dcqcnProfile=bogus",
              "--pmax=1.5",
              "--topologyFile=/nonexistent-llm-fabric/t.txt"}},
        };
        for (const Program& program : programs)
        {
            std::string path = FindExample(program.name, GetName());
            if (path.empty())
            {
                continue;
            }
            std::vector<std::string> bads = common;
            bads.insert(bads.end(), program.bads.begin(), program.bads.end());
            for (const std::string& bad : bads)
            {
                int status = 0;
                std::string output =
                    RunCommand(path + " " + program.base + " '" + bad + "' 2>&1", status);
                std::string what = program.name + " " + bad + ": " + output;
                NS_TEST_EXPECT_MSG_EQ(status, 2, what);
                NS_TEST_EXPECT_MSG_EQ(output.empty(), false, what);
                NS_TEST_EXPECT_MSG_EQ(output.find('\n'), output.size() - 1, "one line: " << what);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(output.size(), 401, what);
                // At most 400 bytes without its line break, no control byte, valid UTF-8.
                NS_TEST_EXPECT_MSG_EQ(fuzz::CheckMessageLine(output.substr(0, output.size() - 1)),
                                      "",
                                      "no control bytes: " << what);
                // An option's problem names the program and the option.
                bool scenarioProblem = output.rfind("/", 0) == 0;
                NS_TEST_EXPECT_MSG_EQ(scenarioProblem || output.rfind(program.name + ": ", 0) == 0,
                                      true,
                                      "named: " << what);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The programs' refusals test suite.
 */
class ProgramRefusalsTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    ProgramRefusalsTestSuite()
        : TestSuite("llm-fabric-program-refusals", Type::SYSTEM)
    {
        AddTestCase(new ProgramRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static ProgramRefusalsTestSuite g_programRefusalsTestSuite;

} // namespace tests
} // namespace llmfabric
