/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Determinism: two small examples, each run twice at the same seed, write the same bytes: every
 * output file (CSV, JSON, pcap) and their standard output, except the figures that measure the
 * machine (wall-clock time, speed, peak memory), which are removed before comparing.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param text a program's output or a JSON file.
 * @return it without the lines that measure the machine.
 */
std::string
WithoutMachineFigures(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    std::string out;
    while (std::getline(in, line))
    {
        bool machine = line.find("\"wall_s\"") != std::string::npos ||
                       line.find("\"peak_rss_mib\"") != std::string::npos ||
                       line.find("link frames/s") != std::string::npos ||
                       line.find("peak RSS") != std::string::npos;
        if (!machine)
        {
            out += line + "\n";
        }
    }
    return out;
}

/**
 * @param dir a folder.
 * @return the names of its files.
 */
std::set<std::string>
FilesIn(const std::string& dir)
{
    std::set<std::string> names;
    DIR* d = opendir(dir.c_str());
    while (d != nullptr)
    {
        dirent* e = readdir(d);
        if (e == nullptr)
        {
            break;
        }
        std::string name = e->d_name;
        if (name != "." && name != "..")
        {
            names.insert(name);
        }
    }
    if (d != nullptr)
    {
        closedir(d);
    }
    return names;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Two runs of the incast example (with pcaps and time series) and of the training program at one
 * seed write identical bytes.
 */
class DeterminismTestCase : public TestCase
{
  public:
    DeterminismTestCase()
        : TestCase("Two examples run twice at one seed write identical outputs")
    {
    }

  private:
    void DoRun() override
    {
        std::string incast = FindExample("llm-fabric-incast", GetName());
        std::string train = FindExample("llm-fabric-train", GetName());
        if (incast.empty() || train.empty())
        {
            return;
        }
        std::string scenario = CreateTempDirFilename("small.yaml");
        std::ofstream(scenario) << "model:\n  layers: 4\n  hidden_size: 256\n  heads: 4\n"
                                   "  ffn_hidden_size: 1024\n  vocabulary_size: 1000\n"
                                   "  sequence_length: 128\ntraining:\n"
                                   "  global_batch_sequences: 16\n  micro_batch: 2\nlayout:\n"
                                   "  tp: 2\n  pp: 2\n  dp: 2\ncluster:\n  gpus: 8\n"
                                   "  gpus_per_server: 4\n  gpu: h100\n";
        const std::vector<std::pair<std::string, std::string>> runs = {
            {"incast", incast + " --senders=8 --bytes=300000 --cc=dcqcn --timeSeries=1 --seed=3"},
            {"train", train + " --scenario='" + scenario + "' --sampleInterval=20us --seed=3"}};
        for (const auto& [name, command] : runs)
        {
            std::string outputs[2];
            std::string dirs[2];
            for (int k = 0; k < 2; ++k)
            {
                dirs[k] = CreateTempDirFilename(name + "-" + std::to_string(k));
                int status = 0;
                RunCommand("mkdir -p '" + dirs[k] + "'", status);
                outputs[k] = RunCommand(command + " --outDir='" + dirs[k] + "' --pcap='" + dirs[k] +
                                            "/p' 2>&1",
                                        status);
                NS_TEST_ASSERT_MSG_EQ(status, 0, name << ": " << outputs[k]);
            }
            // The outputs name their folders, which differ.
            for (int k = 0; k < 2; ++k)
            {
                for (auto at = outputs[k].find(dirs[k]); at != std::string::npos;
                     at = outputs[k].find(dirs[k], at))
                {
                    outputs[k].replace(at, dirs[k].size(), "OUT");
                }
            }
            NS_TEST_EXPECT_MSG_EQ(WithoutMachineFigures(outputs[0]),
                                  WithoutMachineFigures(outputs[1]),
                                  name << ": standard output");
            std::set<std::string> files = FilesIn(dirs[0]);
            NS_TEST_EXPECT_MSG_GT(files.size(), 2, name << ": it wrote files");
            NS_TEST_EXPECT_MSG_EQ((files == FilesIn(dirs[1])), true, name << ": the same files");
            bool pcap = false;
            for (const std::string& file : files)
            {
                std::string a = ReadBytes(dirs[0] + "/" + file);
                std::string b = ReadBytes(dirs[1] + "/" + file);
                if (file.size() > 5 && file.compare(file.size() - 5, 5, ".json") == 0)
                {
                    a = WithoutMachineFigures(a);
                    b = WithoutMachineFigures(b);
                }
                pcap = pcap || file.find(".pcap") != std::string::npos;
                NS_TEST_EXPECT_MSG_GT(a.size(), 0, name << ": " << file << " is not empty");
                NS_TEST_EXPECT_MSG_EQ((a == b), true, name << ": " << file << " differs");
            }
            NS_TEST_EXPECT_MSG_EQ(pcap, true, name << ": pcaps compared too");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The determinism test suite.
 */
class DeterminismTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    DeterminismTestSuite()
        : TestSuite("llm-fabric-determinism", Type::SYSTEM)
    {
        AddTestCase(new DeterminismTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static DeterminismTestSuite g_determinismTestSuite;

} // namespace tests
} // namespace llmfabric
