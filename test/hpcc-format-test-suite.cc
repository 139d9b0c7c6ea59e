/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz/fuzz-entries.h"
#include "llm-fabric-test-util.h"

#include "ns3/hpcc-format-reader.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/replay-fabric.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * The input files of HPCC's simulator and its descendants (ns3::HpccFormatReader), their replay
 * (ns3::ReplayFabric) and llm-fabric-replay: the readers on the shared reference files, every
 * refusal, the standalone FCT on worked cases, the peer's addresses and source ports, and
 * incast16 end to end.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Split a line into its words.
 * @param line the line.
 * @return its words.
 */
std::vector<std::string>
Words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string word;
    while (in >> word)
    {
        words.push_back(word);
    }
    return words;
}

/**
 * Read the lines of a file.
 * @param path the file.
 * @return its non-empty lines.
 */
std::vector<std::string>
FileLines(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line))
    {
        if (!line.empty())
        {
            lines.push_back(line);
        }
    }
    return lines;
}

/**
 * @param text a topology.
 * @param[out] topology what it says.
 * @return the reader's answer.
 */
std::string
Topo(const std::string& text, HpccFormatReader::Topology& topology)
{
    std::istringstream in(text);
    return HpccFormatReader::ParseTopology(in, "T", topology);
}

/**
 * @param topology a topology.
 * @param text flows on it.
 * @param[out] flows what they say.
 * @return the reader's answer (data priority 3).
 */
std::string
Flows(const HpccFormatReader::Topology& topology,
      const std::string& text,
      std::vector<HpccFormatReader::Flow>& flows)
{
    std::istringstream in(text);
    return HpccFormatReader::ParseFlows(in, "F", topology, 3, flows);
}

/**
 * Read a topology and its flows from the shared reference files.
 * @param data the folder of the files.
 * @param name the files' stem: name.topology.txt and name.flow.txt.
 * @param[out] topology the topology.
 * @param[out] flows its flows (data priority 3).
 * @return the first reader's problem, or "".
 */
std::string
ReadShared(const std::string& data,
           const std::string& name,
           HpccFormatReader::Topology& topology,
           std::vector<HpccFormatReader::Flow>& flows)
{
    std::string error = HpccFormatReader::ReadTopology(data + name + ".topology.txt", topology);
    return error.empty()
               ? HpccFormatReader::ReadFlows(data + name + ".flow.txt", topology, 3, flows)
               : error;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The readers on the shared reference files: counts, switches, a few links and flows compared
 * with the files' text.
 */
class HpccFormatReadersTestCase : public TestCase
{
  public:
    HpccFormatReadersTestCase()
        : TestCase("HpccFormatReader: the shared incast16 and leafspine32 files")
    {
    }

  private:
    void DoRun() override
    {
        std::string data = FindSharedDataDir(GetName());
        if (data.empty())
        {
            return;
        }
        data += "/hpcc-format/";
        HpccFormatReader::Topology t;
        std::vector<HpccFormatReader::Flow> f;
        NS_TEST_ASSERT_MSG_EQ(ReadShared(data, "incast16", t, f), "", "incast16");
        // incast16.topology.txt: "18 1 0 1 17 NONE", switch 17, links "h 17 100Gbps 1us 0".
        NS_TEST_EXPECT_MSG_EQ(t.simai, true, "SimAI's six counts");
        NS_TEST_EXPECT_MSG_EQ(t.nodes, 18, "18 nodes");
        NS_TEST_ASSERT_MSG_EQ(t.switches.size(), 1, "one switch");
        NS_TEST_EXPECT_MSG_EQ(t.switches[0], 17, "node 17");
        NS_TEST_ASSERT_MSG_EQ(t.links.size(), 17, "17 links");
        NS_TEST_EXPECT_MSG_EQ(t.links[16].a, 16, "last link from 16");
        NS_TEST_EXPECT_MSG_EQ(t.links[16].b, 17, "to 17");
        NS_TEST_EXPECT_MSG_EQ(t.links[16].line, 19, "on line 19 (counts, switches, 17 links)");
        NS_TEST_EXPECT_MSG_EQ(t.links[0].rate.GetBitRate(), 100000000000ULL, "100Gbps");
        NS_TEST_EXPECT_MSG_EQ(t.links[0].delay, MicroSeconds(1), "1us");
        NS_TEST_ASSERT_MSG_EQ(f.size(), 16, "16 flows");
        // Line 2 "1 0 3 100 1000000 0.000000000", line 17 "16 0 3 100 1000000 0.000000000".
        NS_TEST_EXPECT_MSG_EQ(f[0].src, 1, "flow 0 from 1");
        NS_TEST_EXPECT_MSG_EQ(f[15].src, 16, "flow 15 from 16");
        NS_TEST_EXPECT_MSG_EQ(f[15].dst, 0, "to 0");
        NS_TEST_EXPECT_MSG_EQ(f[15].priority, 3, "priority 3");
        NS_TEST_EXPECT_MSG_EQ(f[15].dport, 100, "dport 100");
        NS_TEST_EXPECT_MSG_EQ(f[15].bytes, 1000000, "1,000,000 bytes");
        NS_TEST_EXPECT_MSG_EQ(f[15].start, Seconds(0), "at 0");
        NS_TEST_EXPECT_MSG_EQ(f[15].line, 17, "line 17");

        NS_TEST_ASSERT_MSG_EQ(ReadShared(data, "leafspine32", t, f), "", "leafspine32");
        // leafspine32.topology.txt: "40 1 0 8 48 NONE", switches 32..39; link 0 "0 32 ...",
        // the last "35 39 100Gbps 1us 0".
        NS_TEST_EXPECT_MSG_EQ(t.nodes, 40, "40 nodes");
        NS_TEST_ASSERT_MSG_EQ(t.switches.size(), 8, "8 switches");
        for (uint32_t s = 0; s < 8; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(t.switches[s], 32 + s, "switch ids 32..39");
        }
        NS_TEST_ASSERT_MSG_EQ(t.links.size(), 48, "48 links");
        NS_TEST_EXPECT_MSG_EQ(t.links[0].a, 0, "link 0 from 0");
        NS_TEST_EXPECT_MSG_EQ(t.links[0].b, 32, "to 32");
        NS_TEST_EXPECT_MSG_EQ(t.links[47].a, 35, "link 47 from 35");
        NS_TEST_EXPECT_MSG_EQ(t.links[47].b, 39, "to 39");
        NS_TEST_ASSERT_MSG_EQ(f.size(), 200, "200 flows");
        // Line 3: "8 24 3 100 20300 0.000002809".
        NS_TEST_EXPECT_MSG_EQ(f[1].src, 8, "flow 1 from 8");
        NS_TEST_EXPECT_MSG_EQ(f[1].dst, 24, "to 24");
        NS_TEST_EXPECT_MSG_EQ(f[1].bytes, 20300, "20300 bytes");
        NS_TEST_EXPECT_MSG_EQ(f[1].start, NanoSeconds(2809), "at 2809 ns");
        // The sum of the sizes: 320 MB in all (data README), checked against the file's text.
        uint64_t fileBytes = 0;
        std::vector<std::string> lines = FileLines(data + "leafspine32.flow.txt");
        for (size_t i = 1; i < lines.size(); ++i)
        {
            fileBytes += std::stoull(Words(lines[i])[4]);
        }
        uint64_t readBytes = 0;
        for (const auto& flow : f)
        {
            readBytes += flow.bytes;
        }
        NS_TEST_EXPECT_MSG_EQ(readBytes, fileBytes, "the sizes of the file's text");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Every refusal of the readers: the "NAME: line N: " prefix and the reason.
 */
class HpccFormatRefusalsTestCase : public TestCase
{
  public:
    HpccFormatRefusalsTestCase()
        : TestCase("HpccFormatReader: malformed files are refused with FILE: line N: reason")
    {
    }

  private:
    /**
     * Check a refusal.
     * @param problem the reader's answer.
     * @param prefix how it must begin ("NAME: line N: ").
     * @param reason a word of the reason it must contain.
     */
    void ExpectRefusal(const std::string& problem,
                       const std::string& prefix,
                       const std::string& reason)
    {
        NS_TEST_EXPECT_MSG_EQ(problem.rfind(prefix, 0), 0, "prefix: " << problem);
        NS_TEST_EXPECT_MSG_NE(problem.find(reason), std::string::npos, "reason: " << problem);
        NS_TEST_EXPECT_MSG_EQ(fuzz::CheckMessageLine(problem), "", "one clean line");
    }

    void DoRun() override
    {
        const std::string link = " 100Gbps 1us 0\n";
        // The first two lines of a star of 2 hosts: 3 nodes, 1 switch, 2 links; the switch is 2.
        const std::string twoHosts = "3 1 2\n2\n";
        // (text, expected prefix, a word of the reason)
        const std::vector<std::tuple<std::string, std::string, std::string>> topologies = {
            {"", "T: line 1: ", "empty"},
            {"3 1\n", "T: line 1: ", "found 2 fields"},
            {"-3 1 2\n", "T: line 1: ", "not a whole number"},
            {"abc 1 2\n", "T: line 1: ", "not a whole number"},
            {"3 2 0 1 2 NONE\n2\n0 2" + link + "1 2" + link, "T: line 1: ", "gpus_per_server"},
            {"3 1 1 1 2 NONE\n2\n0 2" + link + "1 2" + link, "T: line 1: ", "nvswitches"},
            {"3 3 2\n", "T: line 1: ", "fewer than the nodes"},
            {"3 1 2\n5\n", "T: line 2: ", "not a node"},
            {"3 1 2\n2 1\n", "T: line 2: ", "expected the 1 switch ids"},
            {"4 2 3\n2 2\n", "T: line 2: ", "listed twice"},
            {twoHosts + "0 2 100Gbps 1us 0.01\n1 2" + link, "T: line 3: ", "error rate"},
            {twoHosts + "0 2 100Gbps 1us x\n", "T: line 3: ", "not a number"},
            {twoHosts + "0 3" + link, "T: line 3: ", "not a node"},
            {twoHosts + "2 2" + link, "T: line 3: ", "to itself"},
            {twoHosts + "0 2 100 1us 0\n", "T: line 3: ", "rate"},
            {twoHosts + "0 2 100Gbps 1 0\n", "T: line 3: ", "delay"},
            {twoHosts + "0 2 100Gbps -1us 0\n", "T: line 3: ", "delay"},
            {twoHosts + "0 2 100Gbps 1us 0 x\n", "T: line 3: ", "found 6 fields"},
            {"3 1 3\n2\n0 2" + link + "1 2" + link, "T: line 5: ", "ends after 2 links"},
            {"3 1 1\n2\n0 2" + link + "1 2" + link, "T: line 4: ", "trailing"},
            {"4 1 3\n3\n0 3" + link + "1 3" + link + "3 0" + link, "T: line 5: ", "second link"},
            {"4 2 3\n2 3\n0 2" + link + "0 3" + link + "1 2" + link, "T: line 4: ", "host 0"},
            {"4 1 2\n3\n0 3" + link + "1 3" + link, "T: line 1: ", "host 2 has no link"},
            // Blank lines count: the bad delay is on line 5.
            {"3 1 2\n\n2\n0 2" + link + "1 2 100Gbps 1usx 0\n", "T: line 5: ", "delay"},
        };
        for (const auto& [text, prefix, reason] : topologies)
        {
            HpccFormatReader::Topology t;
            ExpectRefusal(Topo(text, t), prefix, reason);
        }

        HpccFormatReader::Topology star; // hosts 0, 1, 2 on switch 3
        NS_TEST_ASSERT_MSG_EQ(Topo("4 1 3\n3\n0 3" + link + "1 3" + link + "2 3" + link, star),
                              "",
                              "a star");
        HpccFormatReader::Topology split; // hosts 0, 1 on switch 4; 2, 3 on switch 5
        NS_TEST_ASSERT_MSG_EQ(
            Topo("6 2 4\n4 5\n0 4" + link + "1 4" + link + "2 5" + link + "3 5" + link, split),
            "",
            "two islands");
        const std::vector<std::tuple<std::string, std::string, std::string>> flows = {
            {"", "F: line 1: ", "empty"},
            {"x\n", "F: line 1: ", "not a whole number"},
            {"1 2\n", "F: line 1: ", "alone"},
            {"0\n", "F: line 1: ", "no flow"},
            {"2\n0 1 3 100 1000 0\n", "F: line 3: ", "ends after 1 flows"},
            {"1\n0 1 3 100 1000 0\n1 2 3 100 1000 0\n", "F: line 3: ", "trailing"},
            {"1\n0 1 3 100 1000\n", "F: line 2: ", "found 5 fields"},
            {"1\n0 0 3 100 1000 0\n", "F: line 2: ", "to itself"},
            {"1\n0 3 3 100 1000 0\n", "F: line 2: ", "is a switch"},
            {"1\n0 9 3 100 1000 0\n", "F: line 2: ", "not a node"},
            {"1\n0 1 5 100 1000 0\n", "F: line 2: ", "priority 5"},
            {"1\n0 1 9 100 1000 0\n", "F: line 2: ", "above 7"},
            {"1\n0 1 3 70000 1000 0\n", "F: line 2: ", "above 65535"},
            {"1\n0 1 3 100 0 0\n", "F: line 2: ", "bytes 0"},
            {"1\n0 1 3 100 -5 0\n", "F: line 2: ", "not a whole number"},
            {"1\n0 1 3 100 1e3 0\n", "F: line 2: ", "not a whole number"},
            {"1\n0 1 3 100 1000 -1\n", "F: line 2: ", "start"},
            {"1\n0 1 3 100 1000 abc\n", "F: line 2: ", "start"},
            {"2\n0 1 3 100 1000 0.5\n1 2 3 100 1000 0.4\n", "F: line 3: ", "before the previous"},
        };
        for (const auto& [text, prefix, reason] : flows)
        {
            std::vector<HpccFormatReader::Flow> f;
            ExpectRefusal(Flows(star, text, f), prefix, reason);
        }
        std::vector<HpccFormatReader::Flow> f;
        std::string problem = Flows(split, "1\n0 2 3 100 1000 0\n", f);
        NS_TEST_EXPECT_MSG_EQ(problem, "F: line 2: no path from host 0 to host 2", "no path");
        // Equal start times are in order.
        NS_TEST_EXPECT_MSG_EQ(Flows(star, "2\n0 1 3 100 1000 0.5\n1 2 3 100 1000 0.5\n", f),
                              "",
                              "equal starts");
        HpccFormatReader::Topology t;
        NS_TEST_EXPECT_MSG_EQ(HpccFormatReader::ReadTopology("/nonexistent-llm-fabric/t.txt", t),
                              "/nonexistent-llm-fabric/t.txt: cannot open",
                              "missing file");
    }
};

/**
 * @ingroup llm-fabric-tests
 * ReplayFabric's arithmetic: the standalone FCT on two worked cases, the peer's addresses and
 * fct.txt line, the longest base RTT, and the peer's source ports against its fct file.
 */
class ReplayArithmeticTestCase : public TestCase
{
  public:
    ReplayArithmeticTestCase()
        : TestCase("ReplayFabric: standalone FCT, addresses, base RTT, source ports")
    {
    }

  private:
    void DoRun() override
    {
        const std::string link = " 100Gbps 1us 0\n";
        HpccFormatReader::Topology star;
        NS_TEST_ASSERT_MSG_EQ(Topo("3 1 2\n2\n0 2" + link + "1 2" + link, star), "", "star");
        std::vector<HpccFormatReader::Flow> flows;
        NS_TEST_ASSERT_MSG_EQ(Flows(star, "1\n0 1 3 100 1000000 0\n", flows), "", "one flow");
        // 1,000,000 B at MTU 1000 over 2 hops of 100 Gb/s (0.08 ns a byte) and 1 us. Frames are
        // 58 B of headers (Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4) + 1000 B, the first
        // 16 B more (RETH); a frame occupies its wire for frame + 24 B (FCS 4, preamble 8,
        // gap 12) and its last bit arrives frame + 12 B after it starts, plus the delay.
        // Hop 1 sends frame 0 (1074 B) in 1098 x 0.08 = 87.84 ns, then 999 frames every
        // 1082 x 0.08 = 86.56 ns. Hop 2 starts frame 0 at 1086 x 0.08 + 1000 = 1086.88 ns and
        // is busy until 1174.72 ns, 1.28 ns after frame 1 arrives (87.84 + 85.6 + 1000): from
        // then on hop 2 starts frame k at 1174.72 + (k - 1) x 86.56, the last (k = 999) at
        // 87561.6 ns; it arrives 85.6 + 1000 ns later, 88647.2 ns. The final ACK (62 B) comes
        // back over both hops: 2 x ((62 + 12) x 0.08 + 1000) = 2011.84 ns. Total 90659.04 ns
        // (the peer writes 88320 for the same flow: ours is 2.65 % longer).
        ReplayFabric replay(star, flows);
        NS_TEST_EXPECT_MSG_EQ_TOL(replay.GetStandaloneFctNs(0, 1000), 90659.04, 0.01, "1 MB");

        // 2000 B over 100 Gb/s 1 us then 50 Gb/s (0.16 ns a byte) 2 us: hop 1 frame 0 arrives
        // 1086 x 0.08 + 1000 = 1086.88, frame 1 starts at 87.84, arrives 87.84 + 1070 x 0.08 +
        // 1000 = 1173.44; hop 2 frame 0 1086.88 .. 1086.88 + 1098 x 0.16 = 1262.56, frame 1
        // starts 1262.56, arrives 1262.56 + 1070 x 0.16 + 2000 = 3433.76; ACK 74 x 0.16 +
        // 2000 + 74 x 0.08 + 1000 = 3017.76. Total 6451.52 ns.
        HpccFormatReader::Topology mixed;
        NS_TEST_ASSERT_MSG_EQ(Topo("3 1 2\n2\n0 2 100Gbps 1us 0\n2 1 50Gbps 2us 0\n", mixed),
                              "",
                              "mixed rates");
        NS_TEST_ASSERT_MSG_EQ(Flows(mixed, "1\n0 1 3 100 2000 0\n", flows), "", "2000 B");
        ReplayFabric mixedReplay(mixed, flows);
        NS_TEST_EXPECT_MSG_EQ_TOL(mixedReplay.GetStandaloneFctNs(0, 1000),
                                  6451.52,
                                  0.01,
                                  "per-hop rates and delays");

        // The peer's addresses: 11.0.0.1 + 256 n; host 16 is 0x0b001001, host 13 0x0b000d01.
        NS_TEST_EXPECT_MSG_EQ(HpccFormatReader::PeerAddress(0), 0x0b000001U, "host 0");
        NS_TEST_EXPECT_MSG_EQ(HpccFormatReader::PeerAddress(16), 0x0b001001U, "host 16");
        // The last line of incast16.dcqcn.fct.txt, rebuilt from its fields.
        NS_TEST_EXPECT_MSG_EQ(
            ReplayFabric::FctLine({13, 0, 10000, 100, 1000000, 0, 1354844, 88320}),
            "0b000d01 0b000001 10000 100 1000000 0 1354844 88320",
            "the peer's line");

        // Longest idle round trip (Hpcc::PathBaseRtt): per 100 Gb/s 1 us link 2 x 1000 ns +
        // 92.32 ns (a data frame) + 12.64 ns (an ACK) = 2104.96 ns (Hpcc's default star:
        // 2 links, 4209.92 ns); the star: 2 links.
        NS_TEST_EXPECT_MSG_EQ_TOL(
            static_cast<double>(replay.GetLongestBaseRtt(1000).GetPicoSeconds()) / 1000.0,
            4209.92,
            1.0,
            "star: 2 links");

        std::string data = FindSharedDataDir(GetName());
        if (data.empty())
        {
            return;
        }
        data += "/hpcc-format/";
        HpccFormatReader::Topology t;
        NS_TEST_ASSERT_MSG_EQ(ReadShared(data, "leafspine32", t, flows), "", "leafspine32");
        // Across leaves a path has 4 links: 4 x 2104.96 = 8419.84 ns.
        ReplayFabric leafSpine(t, flows);
        NS_TEST_EXPECT_MSG_EQ_TOL(
            static_cast<double>(leafSpine.GetLongestBaseRtt(1000).GetPicoSeconds()) / 1000.0,
            8419.84,
            1.0,
            "leaf-spine: 4 links");
        // The peer's source ports: its fct file gives (src, dst, start) -> sport.
        std::map<std::tuple<uint32_t, uint32_t, int64_t>, uint32_t> peerPorts;
        for (const std::string& line : FileLines(data + "leafspine32.dcqcn.fct.txt"))
        {
            std::vector<std::string> w = Words(line);
            peerPorts[{static_cast<uint32_t>((std::stoul(w[0], nullptr, 16) - 0x0b000001U) / 256),
                       static_cast<uint32_t>((std::stoul(w[1], nullptr, 16) - 0x0b000001U) / 256),
                       std::stoll(w[5])}] = std::stoul(w[2]);
        }
        NS_TEST_ASSERT_MSG_EQ(peerPorts.size(), 200, "200 distinct flows in the peer's file");
        std::vector<uint16_t> ports = ReplayFabric::PeerSourcePorts(flows);
        uint32_t repeated = 0;
        for (size_t i = 0; i < flows.size(); ++i)
        {
            auto key = std::make_tuple(flows[i].src, flows[i].dst, flows[i].start.GetNanoSeconds());
            NS_TEST_ASSERT_MSG_EQ(peerPorts.count(key), 1, "flow " << i << " in the peer's file");
            NS_TEST_EXPECT_MSG_EQ(ports[i], peerPorts[key], "flow " << i << "'s port");
            repeated += ports[i] != 10000 ? 1 : 0;
        }
        // The peer's file: 181 flows on 10000, 17 on 10001, 2 on 10002.
        NS_TEST_EXPECT_MSG_EQ(repeated, 19, "19 flows repeat a pair");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-replay on incast16: every flow finishes, the last no sooner than the line-rate
 * bound, fct.txt in the peer's columns with the peer's addresses and ports; a malformed file
 * and a missing option are one line and exit status 2.
 */
class ReplayProgramTestCase : public TestCase
{
  public:
    ReplayProgramTestCase()
        : TestCase("llm-fabric-replay: incast16 end to end, fct.txt, refusals")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-replay", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("replay");
        int status = 0;
        std::string out = RunCommand(program + " --outDir='" + dir + "' 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "no files: exit 2");
        NS_TEST_EXPECT_MSG_EQ(out, "llm-fabric-replay: --topologyFile: is required\n", "message");
        // A topology with random loss: refused on its line.
        std::string bad = dir + "-bad.topology.txt";
        {
            std::ofstream f(bad);
            f << "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0.001\n";
        }
        out = RunCommand(program + " --topologyFile='" + bad + "' --flowFile='" + bad +
                             "' --outDir='" + dir + "' 2>&1",
                         status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "bad file: exit 2");
        NS_TEST_EXPECT_MSG_EQ(out.rfind(bad + ": line 4: error rate 0.001", 0), 0, out);
        NS_TEST_EXPECT_MSG_EQ(out.find('\n'), out.size() - 1, "one line: " << out);

        std::string data = FindSharedDataDir(GetName());
        if (data.empty())
        {
            return;
        }
        data += "/hpcc-format/";
        out = RunCommand(program + " --topologyFile='" + data + "incast16.topology.txt' " +
                             "--flowFile='" + data + "incast16.flow.txt' --outDir='" + dir + "'",
                         status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the replay succeeds: " << out);
        std::ifstream summaryFile(dir + "/summary.json");
        nlohmann::json json = nlohmann::json::parse(summaryFile, nullptr, false);
        NS_TEST_ASSERT_MSG_EQ(json.is_object(), true, "summary.json parses");
        NS_TEST_EXPECT_MSG_EQ(json.value("flows_done", -1.0), 16, "16 flows done");
        NS_TEST_EXPECT_MSG_EQ(json.value("drops", -1.0), 0, "PFC: no drop");
        // 16 x 1,000,000 B at 1000 B a packet: 16,000 data packets, none sent twice.
        NS_TEST_EXPECT_MSG_EQ(json.value("data_packets", -1.0), 16000, "16,000 data packets");
        // Line-rate bound of the receiver's link: 16,000 frames of 1000 B payload + 58 B of
        // headers + 24 B of FCS, preamble and gap, and 16 x 16 B of RETH: 17,312,256 B x 8 /
        // 100 Gb/s = 1384.98 us; before it the first frame crosses the first link (1 us +
        // 1098 x 0.08 ns), after it the last frame's propagation to the receiver (1 us) and the
        // final ACK over 2 links (2 us): the last flow ends after 1389.07 us.
        std::vector<std::string> lines = FileLines(dir + "/fct.txt");
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 16, "one line per finished flow");
        std::vector<std::string> script = FileLines(dir + "/fct-slowdown.plt");
        NS_TEST_EXPECT_MSG_EQ(std::count(script.begin(),
                                         script.end(),
                                         "plot \"fct.txt\" using (column(5)):(column(7)/column(8)) "
                                         "with points pt 7 ps 0.6 title \"a flow\""),
                              1,
                              "the FCT figure reads fct.txt: size, FCT over standalone FCT");
        std::set<std::string> ours;
        double last = 0;
        for (const std::string& line : lines)
        {
            std::vector<std::string> w = Words(line);
            NS_TEST_ASSERT_MSG_EQ(w.size(), 8, "8 columns: " << line);
            NS_TEST_EXPECT_MSG_EQ(w[0].size(), 8, "8 hex digits: " << line);
            last = std::max(last, std::stod(w[5]) + std::stod(w[6]));
            // Standalone FCT: 90659.04 ns rounded (ReplayArithmeticTestCase).
            NS_TEST_EXPECT_MSG_EQ(w[7], "90659", "standalone FCT: " << line);
            ours.insert(w[0] + " " + w[1] + " " + w[2] + " " + w[3] + " " + w[4] + " " + w[5]);
        }
        NS_TEST_EXPECT_MSG_GT(last, 1389070.0, "the last flow ends after the line-rate bound");
        NS_TEST_EXPECT_MSG_EQ(json.value("last_flow_end_us", -1.0) * 1000,
                              last,
                              "summary and fct.txt agree");
        // The same flows, addresses, ports, sizes and starts as the peer's file.
        std::set<std::string> peers;
        for (const std::string& line : FileLines(data + "incast16.dcqcn.fct.txt"))
        {
            std::vector<std::string> w = Words(line);
            peers.insert(w[0] + " " + w[1] + " " + w[2] + " " + w[3] + " " + w[4] + " " + w[5]);
        }
        NS_TEST_EXPECT_MSG_EQ((ours == peers), true, "the peer's first six columns");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The HPCC-format test suite.
 */
class HpccFormatTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    HpccFormatTestSuite()
        : TestSuite("llm-fabric-hpcc-format", Type::UNIT)
    {
        AddTestCase(new HpccFormatReadersTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HpccFormatRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ReplayArithmeticTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ReplayProgramTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static HpccFormatTestSuite g_hpccFormatTestSuite;

} // namespace tests
} // namespace llmfabric
