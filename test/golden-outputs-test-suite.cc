/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"
#include "sha256.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Golden outputs: small runs of the incast, leaf-spine, training and replay programs at fixed
 * seeds must write files whose SHA-256 hashes are those of test/golden/golden-outputs.txt, so an
 * optimization that claims not to change behaviour is held to it byte for byte. The figures that
 * measure the machine or the implementation rather than the model (wall time, peak memory, the
 * number of scheduler events) are removed from the JSON files before hashing. Also checks the
 * SHA-256 implementation against the FIPS 180-2 vectors.
 *
 * Regenerate the golden file (only for a change of results stated, with its reason, in the
 * commit that carries the new file):
 *   LLM_FABRIC_UPDATE_GOLDEN=1 build/bin/llm-fabric-test-runner --suite=llm-fabric-golden-outputs
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The golden file, relative to the source folder.
const std::string GOLDEN_FILE = "test/golden/golden-outputs.txt";

/**
 * @param dir a folder.
 * @return the names of the regular files in it, sorted, but the PNG pictures gnuplot draws from
 *         the figures' scripts: their bytes depend on the gnuplot and cairo installed, and they
 *         exist only where gnuplot does (the scripts, *.plt, are hashed; the figures suite
 *         checks the pictures).
 */
std::vector<std::string>
RegularFilesIn(const std::string& dir)
{
    std::map<std::string, bool> names;
    DIR* d = opendir(dir.c_str());
    while (d != nullptr)
    {
        dirent* e = readdir(d);
        if (e == nullptr)
        {
            break;
        }
        struct stat st;
        std::string name = e->d_name;
        bool picture = name.size() > 4 && name.compare(name.size() - 4, 4, ".png") == 0;
        if (!picture && stat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode))
        {
            names[name] = true;
        }
    }
    if (d != nullptr)
    {
        closedir(d);
    }
    std::vector<std::string> sorted;
    for (const auto& [name, unused] : names)
    {
        sorted.push_back(name);
    }
    return sorted;
}

/**
 * What of a file is hashed: its bytes with the run's folder named OUT and, in JSON files, without
 * the lines of the keys that measure the machine or the implementation ("wall_s",
 * "peak_rss_mib", "events": the event count falls when an optimization folds events away while
 * every result stays the same).
 * @param name the file's name.
 * @param bytes its bytes.
 * @param dir the run's output folder.
 * @return the bytes to hash.
 */
std::string
Canonical(const std::string& name, std::string bytes, const std::string& dir)
{
    for (auto at = bytes.find(dir); at != std::string::npos; at = bytes.find(dir, at))
    {
        bytes.replace(at, dir.size(), "OUT");
    }
    if (name.size() < 5 || name.compare(name.size() - 5, 5, ".json") != 0)
    {
        return bytes;
    }
    std::istringstream in(bytes);
    std::string out;
    for (std::string line; std::getline(in, line);)
    {
        if (line.find("\"wall_s\"") == std::string::npos &&
            line.find("\"peak_rss_mib\"") == std::string::npos &&
            line.find("\"events\"") == std::string::npos)
        {
            out += line + "\n";
        }
    }
    return out;
}

/**
 * @param path the golden file.
 * @return its (name, hash) pairs; empty if it is absent.
 */
std::map<std::string, std::string>
ReadGolden(const std::string& path)
{
    std::map<std::string, std::string> golden;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
    {
        std::istringstream words(line);
        std::string hash;
        std::string name;
        if (line.empty() || line[0] == '#' || !(words >> hash >> name))
        {
            continue;
        }
        golden[name] = hash;
    }
    return golden;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Sha256 against the FIPS 180-2 appendix B vectors, and the digest of bytes fed in pieces across
 * the padding boundaries equals the digest of the same bytes fed at once.
 */
class Sha256VectorsTestCase : public TestCase
{
  public:
    Sha256VectorsTestCase()
        : TestCase("Sha256: FIPS 180-2 vectors; pieces or whole give one digest")
    {
    }

  private:
    void DoRun() override
    {
        // FIPS 180-2, appendix B.1 (one block), B.2 (two blocks), B.3 (one million 'a').
        NS_TEST_EXPECT_MSG_EQ(Sha256::Hex("abc"),
                              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                              "B.1");
        NS_TEST_EXPECT_MSG_EQ(
            Sha256::Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "B.2");
        NS_TEST_EXPECT_MSG_EQ(Sha256::Hex(std::string(1000000, 'a')),
                              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                              "B.3");
        // The empty message: the digest of the padding block alone (NIST's published value).
        NS_TEST_EXPECT_MSG_EQ(Sha256::Hex(""),
                              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                              "empty");
        // Lengths around 55/56 bytes (the last that pads in one block, the first that needs
        // two) and 64 (a full block): the same digest fed byte by byte as at once.
        for (std::size_t n : {55, 56, 63, 64, 65, 119, 120})
        {
            std::string text;
            for (std::size_t i = 0; i < n; ++i)
            {
                text += static_cast<char>('a' + i % 26);
            }
            Sha256 pieces;
            for (char c : text)
            {
                pieces.Update(std::string(1, c));
            }
            NS_TEST_EXPECT_MSG_EQ(pieces.HexDigest(), Sha256::Hex(text), "length " << n);
        }
        NS_TEST_EXPECT_MSG_NE(Sha256::Hex("abd"), Sha256::Hex("abc"), "one bit differs");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The output files of four small runs hash to the golden file's values. The runs exercise PFC
 * (the incast: 126 pause frames when the golden file was made), ECN and DCQCN (CNPs in the
 * incast and the leaf-spine), ECMP (the leaf-spine's 4 spines), ACK coalescing (the default
 * AckInterval of 16 in all), the training application over NVLink and a rail-optimized fabric,
 * and the replay of the shared HPCC-format incast16 files.
 */
class GoldenOutputsTestCase : public TestCase
{
  public:
    GoldenOutputsTestCase()
        : TestCase("Small runs at fixed seeds write files with the golden hashes")
    {
    }

  private:
    /// One run: a name (the folder in the golden file) and the command, without --outDir.
    struct Run
    {
        std::string name;    //!< folder name
        std::string command; //!< command line
    };

    /**
     * @param dir where the runs write.
     * @return the runs, or an empty list (a skip reported) if a program or data is missing.
     */
    std::vector<Run> Runs(const std::string& dir)
    {
        std::string incast = FindExample("llm-fabric-incast", GetName());
        std::string leafSpine = FindExample("llm-fabric-leaf-spine", GetName());
        std::string train = FindExample("llm-fabric-train", GetName());
        std::string replay = FindExample("llm-fabric-replay", GetName());
        std::string data = FindSharedDataDir(GetName());
        if (incast.empty() || leafSpine.empty() || train.empty() || replay.empty() || data.empty())
        {
            return {};
        }
        // A small dense model on 8 GPUs in 2 servers, tp 2 x pp 2 x dp 2, on a rail-optimized
        // fabric with one spine: NVLink and network transfers, pipeline and data parallelism.
        std::string scenario = dir + "/small.yaml";
        std::ofstream(scenario) << "model:\n  layers: 4\n  hidden_size: 1024\n  heads: 4\n"
                                   "  ffn_hidden_size: 4096\n  vocabulary_size: 1000\n"
                                   "  sequence_length: 128\ntraining:\n"
                                   "  global_batch_sequences: 16\n  micro_batch: 2\nlayout:\n"
                                   "  tp: 2\n  pp: 2\n  dp: 2\ncluster:\n  gpus: 8\n"
                                   "  gpus_per_server: 4\n  gpu: h100\ntopology:\n"
                                   "  kind: rail-optimized\n  spines: 1\n";
        std::string files = data + "/hpcc-format/incast16";
        return {
            {"incast",
             incast + " --senders=8 --bytes=300000 --bufferSize=1MB --seed=1 --timeSeries=1" +
                 " --pcap='" + dir + "/incast/p'"},
            {"leaf-spine", leafSpine + " --flows=60 --fabricRate=25Gbps --bufferSize=1MB --seed=1"},
            {"train",
             train + " --scenario='" + scenario + "' --sampleInterval=20us --bufferSize=1MB" +
                 " --seed=1"},
            {"replay",
             replay + " --topologyFile='" + files + ".topology.txt' --flowFile='" + files +
                 ".flow.txt'"},
        };
    }

    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("golden");
        int status = 0;
        RunCommand("mkdir -p '" + dir + "'", status);
        std::vector<Run> runs = Runs(dir);
        if (runs.empty())
        {
            return;
        }
        std::map<std::string, std::string> hashes;
        for (const Run& run : runs)
        {
            std::string out = dir + "/" + run.name;
            RunCommand("mkdir -p '" + out + "'", status);
            std::string said = RunCommand(run.command + " --outDir='" + out + "' 2>&1", status);
            NS_TEST_ASSERT_MSG_EQ(status, 0, run.name << ": " << said);
            std::vector<std::string> names = RegularFilesIn(out);
            NS_TEST_EXPECT_MSG_GT(names.size(), 1, run.name << ": wrote files");
            for (const std::string& name : names)
            {
                std::string bytes = Canonical(name, ReadBytes(out + "/" + name), dir);
                hashes[run.name + "/" + name] = Sha256::Hex(bytes);
            }
        }
        std::string golden = std::string(LLM_FABRIC_SOURCE_DIR) + "/" + GOLDEN_FILE;
        const char* update = std::getenv("LLM_FABRIC_UPDATE_GOLDEN");
        if (update != nullptr && update[0] != '\0')
        {
            std::ofstream file(golden);
            file << "# SHA-256 of the outputs of the llm-fabric-golden-outputs runs (see "
                    "test/golden-outputs-test-suite.cc).\n# Regenerate only for a change of "
                    "results whose reason the commit states.\n";
            for (const auto& [name, hash] : hashes)
            {
                file << hash << "  " << name << "\n";
            }
            std::cout << "golden-outputs: wrote " << hashes.size() << " hashes to " << golden
                      << std::endl;
            return;
        }
        std::map<std::string, std::string> expected = ReadGolden(golden);
        NS_TEST_ASSERT_MSG_GT(expected.size(), 0, "the golden file " << golden << " is read");
        for (const auto& [name, hash] : expected)
        {
            auto found = hashes.find(name);
            NS_TEST_EXPECT_MSG_EQ((found != hashes.end()), true, name << " was written");
            if (found != hashes.end())
            {
                NS_TEST_EXPECT_MSG_EQ(found->second, hash, name << " has its golden hash");
            }
        }
        for (const auto& [name, hash] : hashes)
        {
            NS_TEST_EXPECT_MSG_EQ(expected.count(name), 1, name << " is in the golden file");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The golden-outputs test suite.
 */
class GoldenOutputsTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    GoldenOutputsTestSuite()
        : TestSuite("llm-fabric-golden-outputs", Type::SYSTEM)
    {
        AddTestCase(new Sha256VectorsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new GoldenOutputsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static GoldenOutputsTestSuite g_goldenOutputsTestSuite;

} // namespace tests
} // namespace llmfabric
