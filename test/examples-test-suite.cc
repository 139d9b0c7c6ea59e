/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/cc-comparison.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <cmath>
#include <dirent.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param json a JSON text (a program's output).
 * @param key a key.
 * @param section if not empty, the key is looked for inside the object of this name.
 * @return the number at that key (-1 if the text does not parse or the key is absent or not a
 * number).
 */
double
JsonNumber(const std::string& json, const std::string& key, const std::string& section = "")
{
    nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded())
    {
        return -1;
    }
    const nlohmann::json& object =
        section.empty() ? parsed : parsed.value(section, nlohmann::json());
    return object.is_object() && object.contains(key) && object[key].is_number()
               ? object[key].get<double>()
               : -1;
}

/**
 * @param path a file.
 * @return its contents ("" if it cannot be read).
 */
std::string
ReadText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// @return the lines of a text.
std::vector<std::string>
Lines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/// @return the comma-separated fields of a CSV line (a trailing empty field kept).
std::vector<std::string>
Split(const std::string& line)
{
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
    {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/// @return the value of "key=value" in a line ("" if absent).
std::string
Field(const std::string& line, const std::string& key)
{
    auto p = line.find(" " + key + "=");
    if (p == std::string::npos)
    {
        return "";
    }
    p += key.size() + 2;
    return line.substr(p, line.find(' ', p) - p);
}

/**
 * The figures a program wrote: each NAME.plt in the folder and, where gnuplot is installed,
 * NAME.png (a PNG signature). What the scripts draw is the figures suite's subject.
 * @param dir the program's output folder.
 * @param names the figures' names.
 * @return "" or the files missing.
 */
std::string
MissingFigures(const std::string& dir, const std::vector<std::string>& names)
{
    std::string missing;
    bool drawn = HaveProgram("gnuplot");
    for (const auto& name : names)
    {
        if (ReadText(dir + "/" + name + ".plt").find("set output \"" + name + ".png\"") ==
            std::string::npos)
        {
            missing += " " + name + ".plt";
        }
        if (drawn && ReadText(dir + "/" + name + ".png").substr(1, 3) != "PNG")
        {
            missing += " " + name + ".png";
        }
    }
    return missing;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-wire-formats writes a pcap whose frames, as tshark dissects them, carry the
 * values the program printed: the "opens in Wireshark with the field values the program
 * printed", checked.
 */
class WireFormatsExampleTestCase : public TestCase
{
  public:
    WireFormatsExampleTestCase()
        : TestCase("llm-fabric-wire-formats: its pcap holds the frames and values it printed")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-wire-formats", GetName());
        if (program.empty())
        {
            return;
        }
        if (!HaveProgram("tshark"))
        {
            ReportSkip(GetName(), "tshark is not installed (apt-get install tshark)");
            return;
        }
        std::string pcap = CreateTempDirFilename("wire-formats.pcap");
        int status = 0;
        // 3000 bytes at MTU 1024: WRITE First, Middle, Last (1024, 1024, 952 bytes), PSN 100 on.
        std::string out = RunCommand(program + " --bytes=3000 --mtu=1024 --psn=100 --priority=3" +
                                         " --pcap='" + pcap + "'",
                                     status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds; it printed: " << out);

        // The frame lines: "  N  T ns  A->B  S B  what".
        std::vector<std::string> printed;
        for (const auto& line : Lines(out))
        {
            if (line.find(" ns  ") != std::string::npos)
            {
                printed.push_back(line);
            }
        }
        // 3 data packets, CNP, ACK, PFC pause, PFC resume.
        NS_TEST_ASSERT_MSG_EQ(printed.size(), 7, "seven frames printed: " << out);

        std::string fields = RunCommand(
            "tshark -r '" + pcap +
                "' -T fields -E separator=' ' -E occurrence=f -e frame.len"
                " -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn"
                " -e ip.dsfield.ecn -e macc.cbfc.enbv -e macc.cbfc.pause_time.c3"
                " -e frame.time_epoch 2>/dev/null",
            status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark reads the pcap");
        std::vector<std::string> dissected = Lines(fields);
        NS_TEST_ASSERT_MSG_EQ(dissected.size(), 7, "seven frames in the pcap: " << fields);

        // Opcodes by position, from the exchange the program's header comment describes.
        const std::vector<std::string> opcodes = {"6", "7", "8", "129", "17", "", ""};
        for (size_t i = 0; i < 7; ++i)
        {
            std::istringstream row(dissected[i]);
            std::istringstream line(printed[i]);
            std::string index;
            std::string ns;
            std::string unit;
            std::string direction;
            std::string wireBytes;
            line >> index >> ns >> unit >> direction >> wireBytes;
            std::string len;
            row >> len;
            // The program prints the size on the wire with the 4-byte FCS; pcaps have no FCS.
            NS_TEST_EXPECT_MSG_EQ(std::stoul(len) + 4, std::stoul(wireBytes), "frame " << i + 1);
            std::string expectedTime =
                "0." + std::string(9 - std::min<size_t>(9, ns.size()), '0') + ns;
            NS_TEST_EXPECT_MSG_EQ(dissected[i].substr(dissected[i].rfind(' ') + 1),
                                  expectedTime,
                                  "frame " << i + 1 << " timestamp in nanoseconds");
            if (i < 5)
            {
                std::string opcode;
                std::string destqp;
                std::string psn;
                std::string ecn;
                row >> opcode >> destqp >> psn >> ecn;
                NS_TEST_EXPECT_MSG_EQ(opcode, opcodes[i], "frame " << i + 1 << " opcode");
                NS_TEST_EXPECT_MSG_EQ(destqp, Field(printed[i], "destqp"), "frame " << i + 1);
                if (!Field(printed[i], "psn").empty())
                {
                    NS_TEST_EXPECT_MSG_EQ(psn, Field(printed[i], "psn"), "frame " << i + 1);
                }
                // ECT(0) is 2 and CE is 3 in ip.dsfield.ecn; the middle packet was marked.
                std::string printedEcn = Field(printed[i], "ecn");
                if (!printedEcn.empty())
                {
                    NS_TEST_EXPECT_MSG_EQ(ecn,
                                          std::string(printedEcn == "CE" ? "3" : "2"),
                                          "frame " << i + 1);
                }
            }
            else
            {
                std::string vector;
                std::string quanta;
                row >> vector >> quanta;
                NS_TEST_EXPECT_MSG_EQ(vector, Field(printed[i], "class-enable"), "PFC vector");
                NS_TEST_EXPECT_MSG_EQ(quanta,
                                      std::string(i == 5 ? "65535" : "0"),
                                      "PFC quanta of priority 3");
                NS_TEST_EXPECT_MSG_EQ(Field(printed[i], "time[3]"), quanta, "printed quanta");
            }
        }
        // Psn of the data packets as derived from --psn=100, and the ACK's PSN is the last one.
        NS_TEST_EXPECT_MSG_EQ(Field(printed[0], "psn"), "100", "first PSN");
        NS_TEST_EXPECT_MSG_EQ(Field(printed[2], "psn"), "102", "last PSN");
        NS_TEST_EXPECT_MSG_EQ(Field(printed[4], "psn"), "102", "the ACK acknowledges PSN 102");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A bad command-line value stops the program with "program: --key: reason" and exit status 2.
 */
class WireFormatsBadInputTestCase : public TestCase
{
  public:
    WireFormatsBadInputTestCase()
        : TestCase("llm-fabric-wire-formats: a bad value exits 2 naming the option")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-wire-formats", GetName());
        if (program.empty())
        {
            return;
        }
        const std::map<std::string, std::string> cases = {
            {"--mtu=128", "--mtu: must be between 256 and 4096"},
            {"--priority=8", "--priority: must be between 0 and 7"},
            {"--bytes=0", "--bytes: must be positive"},
            {"--psn=16777215 --bytes=5000", "--psn: the message's PSNs must fit 24 bits"},
        };
        for (const auto& [args, message] : cases)
        {
            int status = 0;
            std::string out = RunCommand(program + " " + args + " --pcap=/dev/null 2>&1", status);
            NS_TEST_EXPECT_MSG_EQ(status, 2, args << " exits with status 2");
            NS_TEST_EXPECT_MSG_EQ(out, "llm-fabric-wire-formats: " + message + "\n", args);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-pfc-incast: with PFC nothing is lost and the receiver's link runs at line rate;
 * without PFC and with a small buffer, packets are dropped and counted; the pcap of a switch
 * port holds exactly the PFC frames its counters report.
 */
class PfcIncastExampleTestCase : public TestCase
{
  public:
    PfcIncastExampleTestCase()
        : TestCase("llm-fabric-pfc-incast: lossless with PFC at line rate, drops without")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-pfc-incast", GetName());
        if (program.empty())
        {
            return;
        }
        for (bool pfc : {true, false})
        {
            std::string dir = CreateTempDirFilename(pfc ? "incast-pfc" : "incast-lossy");
            int status = 0;
            RunCommand("mkdir -p '" + dir + "'", status);
            std::string out = RunCommand(program + " --senders=4 --packets=500 --bufferSize=1MB" +
                                             " --pfc=" + (pfc ? "1" : "0") + " --outDir='" + dir +
                                             "' --pcap='" + dir + "/p'",
                                         status);
            NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
            std::string json = ReadText(dir + "/summary.json");
            double sent = JsonNumber(json, "packets_sent");
            double received = JsonNumber(json, "packets_received");
            double drops = JsonNumber(json, "drops");
            NS_TEST_ASSERT_MSG_EQ(sent, 2000, "4 senders x 500 packets");
            NS_TEST_EXPECT_MSG_EQ(received + drops, sent, "every packet arrives or is dropped");
            NS_TEST_EXPECT_MSG_EQ(MissingFigures(dir, {"queues", "pauses"}),
                                  "",
                                  "the queue and pause figures");
            if (pfc)
            {
                NS_TEST_EXPECT_MSG_EQ(drops, 0, "PFC: no drop");
                NS_TEST_EXPECT_MSG_GT(JsonNumber(json, "pfc_pause_frames"), 0, "pauses sent");
                // The bound is exact line rate (see the program); the run may only lose the
                // rounding of event times (under 1 ns per frame, not accumulated): 2 %.
                double last = JsonNumber(json, "last_arrival_us");
                double bound = JsonNumber(json, "line_rate_bound_us");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(last, bound - 0.002, "not faster than line rate");
                NS_TEST_EXPECT_MSG_LT(last, bound * 1.02, "within 2 % of line rate");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(drops, 0, "no PFC and 1 MB: drops");
                NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "drops_lossy_limit"), drops, "reason");
                NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "pfc_pause_frames"), 0, "no pause");
            }
            if (!HaveProgram("tshark"))
            {
                continue;
            }
            // Hosts are nodes 0-4 (senders 0-3, the receiver), the switch is node 5, and its
            // device 0 faces sender 0. Hosts send no PFC, so every PFC frame in that port's
            // pcap is one the port sent.
            std::ifstream counters(dir + "/counters.csv");
            std::string line;
            double sentByPort0 = 0;
            while (std::getline(counters, line))
            {
                if (line.rfind("switch0/0,3,", 0) == 0)
                {
                    std::vector<std::string> f;
                    std::stringstream row(line);
                    for (std::string cell; std::getline(row, cell, ',');)
                    {
                        f.push_back(cell);
                    }
                    sentByPort0 = std::stod(f[6]) + std::stod(f[7]); // pauses + resumes sent
                }
            }
            std::string frames = RunCommand("tshark -r '" + dir +
                                                "/p-5-0.pcap' -Y 'macc.opcode == 0x0101' "
                                                "2>/dev/null | wc -l",
                                            status);
            NS_TEST_EXPECT_MSG_EQ(std::stod(frames),
                                  sentByPort0,
                                  "the pcap holds the PFC frames the port counted");
            double atLeast = pfc ? 1 : 0; // with PFC the port paused its sender
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sentByPort0, atLeast, "PFC frames sent by port 0");
            std::string errors =
                RunCommand("tshark -r '" + dir + "/p-5-0.pcap' 2>&1 >/dev/null", status);
            NS_TEST_EXPECT_MSG_EQ(errors.find("cut short"),
                                  std::string::npos,
                                  "the pcap is complete (flushed at the end): " << errors);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-incast over the reliable transport: every flow finishes without a drop, and the
 * pcaps hold data with increasing PSNs, ACKs, the CNPs the senders counted, and PFC pauses.
 */
class IncastExampleTestCase : public TestCase
{
  public:
    IncastExampleTestCase()
        : TestCase("llm-fabric-incast: flows complete; pcap has PSNs, ACKs, CNPs and PFC")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-incast", GetName());
        if (program.empty())
        {
            return;
        }
        // A configuration found inconsistent after the fabric was built (the buffer cannot hold
        // the reserved bytes of 5 ports x 8 priorities x 4200 bytes = 168,000 bytes) stops with
        // one line and status 2, not a crash.
        {
            int status = 0;
            std::string out = RunCommand(program + " --senders=4 --bufferSize=100KB 2>&1", status);
            NS_TEST_EXPECT_MSG_EQ(status, 2, "exit status 2: " << out);
            NS_TEST_EXPECT_MSG_EQ(out.rfind("llm-fabric-incast: --bufferSize/kmin/kmax/pmax: ", 0),
                                  0,
                                  "one line naming the options: " << out);
        }
        // --cc takes an alias or a TypeId name (the same algorithm, the same run, the same
        // congestion-control time series), and an unknown name stops with Resolve's line.
        {
            int status = 0;
            std::string out = RunCommand(program + " --cc=bbr 2>&1", status);
            NS_TEST_EXPECT_MSG_EQ(status, 2, "unknown cc: exit 2: " << out);
            NS_TEST_EXPECT_MSG_EQ(
                out.rfind("llm-fabric-incast: --cc: unknown congestion control 'bbr'", 0),
                0,
                "one line naming the option: " << out);
            std::vector<std::string> csv;
            for (std::string cc : {"dcqcn", "ns3::Dcqcn"})
            {
                std::string dir =
                    CreateTempDirFilename("incast-names-" + std::to_string(csv.size()));
                // Marking forced (Kmin 1 KB, Kmax 2 KB, Pmax 1): CNPs cut the rates, so DCQCN's
                // rate, target rate and alpha all change. With the paper's profile: under the
                // program's default (mlx5, no target clamp at a cut) the target rate does not
                // change within these 1 MB flows.
                out = RunCommand(program +
                                     " --senders=2 --bytes=1000000 --kmin=1KB --kmax=2KB --pmax=1"
                                     " --dcqcnProfile=sigcomm2015 --timeSeries=1 --cc=" +
                                     cc + " --outDir='" + dir + "'",
                                 status);
                NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
                csv.push_back(ReadText(dir + "/cc.csv") + ReadText(dir + "/fct.csv"));
                NS_TEST_EXPECT_MSG_EQ(
                    MissingFigures(dir, {"fct-slowdown", "queue", "pauses", "cc"}),
                    "",
                    "--timeSeries: the four figures");
            }
            NS_TEST_EXPECT_MSG_EQ((csv[0] == csv[1]), true, "alias and TypeId name: the same run");
            NS_TEST_EXPECT_MSG_EQ(csv[0].rfind("time_us,flow,variable,value\n", 0), 0, "cc.csv");
            for (std::string variable : {",rate_gbps,", ",target_gbps,", ",alpha,"})
            {
                NS_TEST_EXPECT_MSG_NE(csv[0].find(variable),
                                      std::string::npos,
                                      "DCQCN's variables found without naming them: " << variable);
            }
        }
        for (std::string cc : {"dcqcn", "none", "hpcc"})
        {
            std::string dir = CreateTempDirFilename("incast-" + cc);
            int status = 0;
            std::string out =
                RunCommand(program + " --senders=4 --bytes=300000 --bufferSize=1MB --cc=" + cc +
                               " --outDir='" + dir + "' --pcap='" + dir + "/p'",
                           status);
            NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
            if (cc == "hpcc")
            {
                // By its TypeId name: the same run.
                std::string byName = CreateTempDirFilename("incast-ns3-hpcc");
                out = RunCommand(program + " --senders=4 --bytes=300000 --bufferSize=1MB " +
                                     "--cc=ns3::Hpcc --outDir='" + byName + "'",
                                 status);
                NS_TEST_EXPECT_MSG_EQ(status, 0, "the program succeeds: " << out);
                NS_TEST_EXPECT_MSG_EQ(ReadText(byName + "/fct.csv"),
                                      ReadText(dir + "/fct.csv"),
                                      "hpcc and ns3::Hpcc: the same run");
            }
            std::string json = ReadText(dir + "/summary.json");
            NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "flows"), 4, "four flows");
            NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "flows_done"), 4, "all done");
            NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "drops"), 0, "PFC: no drop");
            // 300,000 bytes at MTU 1000: 300 packets per flow, 1200 in all, none resent.
            NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "data_packets"), 1200, "packets sent");
            // Slowdowns are at least 1 (the ideal is the flow alone on an idle path).
            NS_TEST_EXPECT_MSG_GT_OR_EQ(JsonNumber(json, "min", "slowdown"),
                                        1.0,
                                        "slowdown distribution");
            if (!HaveProgram("tshark"))
            {
                continue;
            }
            // Hosts are nodes 0-4 (senders 0-3, receiver 4), the switch node 5; its device 4
            // faces the receiver: the data towards it and the receiver's ACKs and CNPs cross it.
            std::string pcap = dir + "/p-5-4.pcap";
            std::string psns = RunCommand("tshark -r '" + pcap +
                                              "' -Y 'ip.src == 10.0.0.1 && infiniband' -T fields "
                                              "-e infiniband.bth.psn 2>/dev/null | uniq",
                                          status);
            std::istringstream lines(psns);
            std::vector<uint64_t> seen;
            for (std::string line; std::getline(lines, line);)
            {
                seen.push_back(std::stoull(line));
            }
            NS_TEST_EXPECT_MSG_EQ(seen.size(), 300, "sender 0's 300 packets cross the port");
            bool increasing = true;
            for (size_t i = 1; i < seen.size(); ++i)
            {
                increasing = increasing && seen[i] == seen[i - 1] + 1;
            }
            NS_TEST_EXPECT_MSG_EQ(increasing, true, "PSNs 0, 1, 2, ... in order");
            std::string acks = RunCommand("tshark -r '" + pcap +
                                              "' -Y 'infiniband.bth.opcode == 17' 2>/dev/null | "
                                              "wc -l",
                                          status);
            // ACKs every 16 packets and at the end: ceil(300 / 16) = 19 per flow at least.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(std::stod(acks), 4 * 19, "ACKs");
            std::string cnps = RunCommand("tshark -r '" + pcap +
                                              "' -Y 'infiniband.bth.opcode == 129' 2>/dev/null | "
                                              "wc -l",
                                          status);
            NS_TEST_EXPECT_MSG_EQ(std::stod(cnps), JsonNumber(json, "cnps"), "CNPs counted");
            if (cc == "none")
            {
                std::string pauses =
                    RunCommand("cat '" + dir + "'/p-5-[0-3].pcap > /dev/null; for f in '" + dir +
                                   "'/p-5-[0-3].pcap; do tshark -r \"$f\" -Y "
                                   "'macc.cbfc.pause_time.c3 > 0' 2>/dev/null; done | wc -l",
                               status);
                NS_TEST_EXPECT_MSG_GT(std::stod(pauses), 0, "PFC pauses towards the senders");
                NS_TEST_EXPECT_MSG_EQ(std::stod(pauses),
                                      JsonNumber(json, "pfc_pause_frames"),
                                      "every pause frame the switch counted is in its pcaps");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-traffic-report runs on every shipped scenario, its JSON totals add up over the
 * ranks, and a broken scenario stops with one line naming file and key, exit status 2.
 */
class TrafficReportExampleTestCase : public TestCase
{
  public:
    TrafficReportExampleTestCase()
        : TestCase("llm-fabric-traffic-report: every scenario; bad input exits 2 with file: key")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-traffic-report", GetName());
        if (program.empty())
        {
            return;
        }
        std::string scenarios = std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios/";
        for (const char* name : {"gpt2-small-16gpu.yaml",
                                 "gpt3-175b.yaml",
                                 "llama3-8b-128gpu.yaml",
                                 "llama3-70b.yaml",
                                 "mixtral-8x7b.yaml"})
        {
            std::string json = CreateTempDirFilename(std::string(name) + ".json");
            int status = 0;
            std::string out = RunCommand(program + " --scenario='" + scenarios + name +
                                             "' --json='" + json + "' --ranks=0",
                                         status);
            NS_TEST_EXPECT_MSG_EQ(status, 0, name << ": " << out);
            std::string text = ReadText(json);
            // The file parses as JSON, and the sum over ranks of "inter_sent" in the rank rows
            // equals the total's.
            nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
            NS_TEST_ASSERT_MSG_EQ(report.is_discarded(), false, name << ": valid JSON");
            uint64_t sum = 0;
            for (const auto& rank : report["ranks"])
            {
                sum += rank["all"]["inter_sent"].get<uint64_t>();
            }
            NS_TEST_EXPECT_MSG_EQ(sum,
                                  report["totals"]["all"]["inter_sent"].get<uint64_t>(),
                                  name << " adds up");
            NS_TEST_EXPECT_MSG_EQ(report["ranks"][0].contains("collectives"), true, "rank 0's");
        }
        // A scenario path with a quote and a backslash: the JSON still parses and names it
        // (it used to be written by hand, unescaped).
        std::string odd = CreateTempDirFilename("we\"ird\\name.yaml");
        std::ofstream(odd) << ReadText(scenarios + "gpt2-small-16gpu.yaml");
        std::string oddJson = CreateTempDirFilename("odd.json");
        int oddStatus = 0;
        RunCommand(program + " --scenario='" + odd + "' --json='" + oddJson + "' --ranks=0",
                   oddStatus);
        NS_TEST_EXPECT_MSG_EQ(oddStatus, 0, "odd path runs");
        nlohmann::json oddReport = nlohmann::json::parse(ReadText(oddJson), nullptr, false);
        NS_TEST_ASSERT_MSG_EQ(oddReport.is_discarded(), false, "odd path: valid JSON");
        NS_TEST_EXPECT_MSG_EQ(oddReport["scenario"].get<std::string>(), odd, "path kept");
        std::string bad = CreateTempDirFilename("bad.yaml");
        std::ofstream(bad) << "model:\n  preset: gpt2-small\ntraining:\n  global_batch_sequences: "
                              "64\nlayout:\n  tpp: 2\ncluster:\n  gpus: 16\n";
        int status = 0;
        std::string out = RunCommand(program + " --scenario='" + bad + "' 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "a bad scenario exits 2");
        NS_TEST_EXPECT_MSG_EQ(out.rfind(bad + ": layout.tpp: unknown key", 0),
                              0,
                              "one line naming file and key: " << out);
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-dante walks the Divine Comedy from words to packets with the numbers the
 * workload classes give (235,828 tokens: the tokenizer suite's known count).
 */
class DanteExampleTestCase : public TestCase
{
  public:
    DanteExampleTestCase()
        : TestCase("llm-fabric-dante: words, tokens, sequences, iterations, bytes, packets")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-dante", GetName());
        if (program.empty())
        {
            return;
        }
        int status = 0;
        std::string out = RunCommand(program + " 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "no corpus: exit 2");
        NS_TEST_EXPECT_MSG_EQ(out,
                              "llm-fabric-dante: --corpus: a text file is required\n",
                              "message");
        std::string data = FindSharedDataDir(GetName());
        if (data.empty())
        {
            return;
        }
        out = RunCommand(program + " --corpus='" + data + "/divina_commedia.txt' --vocab='" + data +
                             "/gpt2-bpe' --scenario='" + LLM_FABRIC_SOURCE_DIR +
                             "/scenarios/gpt2-small-16gpu.yaml'",
                         status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the walk succeeds: " << out);
        // 556,827 bytes and 97,676 words (data README and wc); 235,828 tokens (gpt-3-encoder);
        // 235,828 / 1024 rounded up = 231 sequences; 231 / 512 rounded up = 1 iteration.
        for (const char* expected : {"556827 bytes",
                                     "97676 words",
                                     "235828 tokens",
                                     "= 231 sequences",
                                     "= 1 iterations per epoch"})
        {
            NS_TEST_EXPECT_MSG_NE(out.find(expected), std::string::npos, expected);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-pfc-hol: PFC's head-of-line blocking slows the victim; DCQCN removes most of it.
 */
class PfcHolExampleTestCase : public TestCase
{
  public:
    PfcHolExampleTestCase()
        : TestCase("llm-fabric-pfc-hol: PFC slows the victim, DCQCN relieves it")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-pfc-hol", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("hol");
        int status = 0;
        std::string out = RunCommand(program + " --outDir='" + dir + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
        std::string json = ReadText(dir + "/summary.json");
        for (const char* c : {"pfc", "no-pfc", "pfc-dcqcn"})
        {
            NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "flows_done", c),
                                  3,
                                  c << ": every flow finishes");
        }
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "drops", "pfc"), 0, "PFC: lossless");
        NS_TEST_EXPECT_MSG_GT(JsonNumber(json, "pfc_pause_frames", "pfc"), 0, "PFC pauses");
        NS_TEST_EXPECT_MSG_GT(JsonNumber(json, "drops", "no-pfc"), 0, "without PFC, drops");
        // The victim alone: 2,000,000 bytes in 2000 packets of 1082 wire bytes at 100 Gb/s =
        // 173.1 us plus about 5 us of hops and ACK. Head-of-line blocking must cost it at least
        // 20 % more with PFC alone than with PFC and DCQCN.
        double pfc = JsonNumber(json, "victim_fct_us", "pfc");
        double dcqcn = JsonNumber(json, "victim_fct_us", "pfc-dcqcn");
        NS_TEST_EXPECT_MSG_GT(dcqcn, 173.1, "not faster than line rate");
        NS_TEST_EXPECT_MSG_GT(pfc, 1.2 * dcqcn, "PFC alone blocks the victim");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-leaf-spine: random-pair flows over a leaf-spine all finish, losslessly, and every
 * finished flow has a row with a slowdown of at least 1 (within a nanosecond of rounding).
 */
class LeafSpineExampleTestCase : public TestCase
{
  public:
    LeafSpineExampleTestCase()
        : TestCase("llm-fabric-leaf-spine: every flow finishes, slowdowns at least 1")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-leaf-spine", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("leaf-spine");
        int status = 0;
        std::string out = RunCommand(program + " --flows=30 --outDir='" + dir + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
        NS_TEST_EXPECT_MSG_EQ(MissingFigures(dir, {"fct-slowdown"}), "", "the FCT figure");
        std::string json = ReadText(dir + "/summary.json");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "flows"), 30, "30 flows");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "flows_done"), 30, "all finish");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "drops"), 0, "PFC: no drop");
        std::ifstream csv(dir + "/fct.csv");
        std::string line;
        std::getline(csv, line); // header
        uint32_t rows = 0;
        while (std::getline(csv, line))
        {
            ++rows;
            double slowdown = std::stod(line.substr(line.rfind(',') + 1));
            NS_TEST_EXPECT_MSG_GT(slowdown, 0.999, "no flow beats its idle-path time");
        }
        NS_TEST_EXPECT_MSG_EQ(rows, 30, "one row per flow");

        // --ecmpSeed reaches the switches: the same 30 flows (sizes, pairs, starts), other
        // equal-cost paths, so some flow's FCT changes; the bytes and flows stay the same.
        std::string other = CreateTempDirFilename("leaf-spine-ecmp");
        out = RunCommand(program + " --flows=30 --ecmpSeed=7 --outDir='" + other + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
        std::vector<std::string> a = Lines(ReadText(dir + "/fct.csv"));
        std::vector<std::string> b = Lines(ReadText(other + "/fct.csv"));
        NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), "as many rows");
        uint32_t sameFlow = 0;
        uint32_t otherFct = 0;
        for (size_t i = 1; i < a.size(); ++i)
        {
            std::vector<std::string> x = Split(a[i]);
            std::vector<std::string> y = Split(b[i]);
            // flow, sender, receiver, hops, bytes, start_us: the same; fct_us (8th) may differ.
            sameFlow += std::equal(x.begin(), x.begin() + 6, y.begin()) ? 1 : 0;
            otherFct += x[7] != y[7] ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(sameFlow, 30, "the same flows");
        NS_TEST_EXPECT_MSG_GT(otherFct, 0, "other paths: some FCT changes");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-pfc-deadlock with its defaults (2 leaves, 2 spines, 2 hosts a leaf, 8 flows of 2 MB
 * from leaf1's hosts to leaf0's, leaf0-spine0 failing at 20 us, routes converging 5 ms later,
 * watchdog detection and restoration 1 ms), checked against the pause intervals the run's own
 * PfcPauseTree recorded (pause-tree.csv: the paused port, start, end, ended):
 *   - without the watchdog, the detector reports the routing loop's cycle: exactly spine0's port
 *     to leaf1 and leaf1's port to spine0 (spine0 bounces leaf0's traffic to leaf1 by its local
 *     repair; leaf1, not yet converged, hashes part of it back to spine0); it is found when the
 *     cycle closes, that is no earlier than the later of the two ports' last pause starts and
 *     within one pause time after it (65535 quanta x 512 bit / 100 Gb/s = 335.5392 us); the
 *     flows through the loop never finish and the run ends at its stop time;
 *   - with the watchdog every flow finishes, and its first storm comes exactly DetectionTime
 *     (1 ms) after the start of the stormed queue's continuous pause;
 *   - with --detector=0 nothing is reported and the same flows stay stuck.
 */
class PfcDeadlockExampleTestCase : public TestCase
{
  public:
    PfcDeadlockExampleTestCase()
        : TestCase("llm-fabric-pfc-deadlock: the cycle of the loop found as it closes, the "
                   "watchdog breaks it")
    {
    }

  private:
    /// A pause of a port, from pause-tree.csv.
    struct Pause
    {
        double startNs; //!< start
        double endNs;   //!< end (the run's end if it never ended)
        bool ended;     //!< whether it ended
    };

    /**
     * @param path a pause-tree.csv.
     * @return the pauses of each paused port (its "child" column).
     */
    static std::map<std::string, std::vector<Pause>> ReadPauses(const std::string& path)
    {
        std::map<std::string, std::vector<Pause>> pauses;
        std::vector<std::vector<std::string>> rows = ReadCsv(path);
        for (size_t i = 1; i < rows.size(); ++i)
        {
            const auto& r = rows[i]; // storm,parent,child,priority,start_ns,end_ns,...,ended
            if (r.size() >= 9)
            {
                pauses[r[2]].push_back({std::stod(r[4]), std::stod(r[5]), r[8] == "1"});
            }
        }
        return pauses;
    }

    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-pfc-deadlock", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("pfc-deadlock");
        int status = 0;
        std::string out = RunCommand(program + " --outDir='" + dir + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "deadlock without, recovery with the watchdog: " << out);
        std::ifstream file(dir + "/summary.json");
        nlohmann::json json = nlohmann::json::parse(file, nullptr, false);
        NS_TEST_ASSERT_MSG_EQ(json.is_object(), true, "summary.json parses");
        const nlohmann::json& without = json["without_watchdog"];
        const nlohmann::json& with = json["with_watchdog"];

        NS_TEST_ASSERT_MSG_EQ(without["deadlocks"].size(), 1, "one deadlock");
        std::set<std::string> queues;
        for (const auto& q : without["deadlocks"][0]["queues"])
        {
            std::string name = q.get<std::string>();
            // "switch:pN->peer": keep the switch and the peer.
            queues.insert(name.substr(0, name.find(':')) + "->" + name.substr(name.find("->") + 2));
        }
        NS_TEST_EXPECT_MSG_EQ((queues == std::set<std::string>{"leaf1->spine0", "spine0->leaf1"}),
                              true,
                              "the cycle is the loop's two queues");
        std::map<std::string, std::vector<Pause>> pauses =
            ReadPauses(dir + "/without-watchdog/pause-tree.csv");
        double closed = 0;
        for (const auto& q : without["deadlocks"][0]["queues"])
        {
            const std::vector<Pause>& p = pauses[q.get<std::string>()];
            NS_TEST_ASSERT_MSG_EQ(p.empty(), false, "the queue was paused: " << q);
            NS_TEST_EXPECT_MSG_EQ(p.back().ended, false, "and stays paused: " << q);
            closed = std::max(closed, p.back().startNs);
        }
        double found = without["deadlocks"][0]["found_us"].get<double>() * 1000;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(found, closed - 0.5, "not found before the cycle closes");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(found, closed + 335539.2, "found within one pause time");
        NS_TEST_EXPECT_MSG_LT(without["flows_done"].get<double>(),
                              without["flows"].get<double>(),
                              "without the watchdog the loop's flows never finish");

        NS_TEST_EXPECT_MSG_EQ(with["flows_done"].get<double>(),
                              with["flows"].get<double>(),
                              "with the watchdog every flow finishes");
        NS_TEST_ASSERT_MSG_GT(with["watchdog_storms"].get<double>(), 0, "a storm");
        double storm = with["first_storm_us"].get<double>() * 1000;
        bool continuous = false;
        for (const auto& [port, list] : ReadPauses(dir + "/with-watchdog/pause-tree.csv"))
        {
            for (const Pause& p : list)
            {
                // Paused from exactly DetectionTime (1 ms) before the storm, and still then.
                continuous |= std::abs(p.startNs + 1e6 - storm) < 0.5 && p.endNs >= storm;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(continuous, true, "the storm comes DetectionTime into a pause");

        std::string off = CreateTempDirFilename("pfc-deadlock-off");
        out = RunCommand(program + " --detector=0 --outDir='" + off + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
        std::ifstream offFile(off + "/summary.json");
        nlohmann::json offJson = nlohmann::json::parse(offFile, nullptr, false);
        NS_TEST_ASSERT_MSG_EQ(offJson.is_object(), true, "summary.json parses");
        NS_TEST_EXPECT_MSG_EQ(offJson["without_watchdog"]["deadlocks"].size(), 0, "no report");
        NS_TEST_EXPECT_MSG_EQ(offJson["without_watchdog"]["flows_done"].get<double>(),
                              without["flows_done"].get<double>(),
                              "the same flows stay stuck");
        out = RunCommand(program + " --stopTime=1us 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "a stop before the failure is refused");
        NS_TEST_EXPECT_MSG_EQ(out,
                              "llm-fabric-pfc-deadlock: --stopTime: must be after --failAt\n",
                              "one line");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-cc-compare in a quick configuration (4 hosts, 100 us of arrivals, two algorithms,
 * a Hadoop set and a WebSearch set with incasts): it writes the bucket table with its 16
 * columns and one row per traffic set, algorithm and bucket (6 sizes, all, and incast where
 * there are incasts: 2 x 7 + 2 x 8 = 30 rows), every flow finishes, both algorithms see the same
 * flows, and the PNG is drawn when gnuplot is installed; without gnuplot on its PATH the
 * program says so and exits 0 without a PNG; bad lists exit 2 naming the option.
 */
class CcCompareExampleTestCase : public TestCase
{
  public:
    CcCompareExampleTestCase()
        : TestCase("llm-fabric-cc-compare: table, flows, script and PNG; gnuplot absent; refusals")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-cc-compare", GetName());
        if (program.empty())
        {
            return;
        }
        // Incasts: 3 senders x 20,000 bytes at load 0.2 of 4 x 100 Gb/s: 166,667 per second,
        // 16.7 expected in 100 us (none with a probability of 6 x 10^-8).
        const std::string quick = " --ccs=dcqcn,none --traffic=hadoop30,websearch30+incast "
                                  "--duration=100us --hostsPerLeaf=2 --leaves=2 --spines=1 "
                                  "--incastLoad=0.2 --incastBytes=20000";
        std::string dir = CreateTempDirFilename("cc-compare");
        int status = 0;
        std::string out = RunCommand(program + quick + " --outDir='" + dir + "'", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the comparison succeeds: " << out);
        std::vector<std::string> rows = Lines(ReadText(dir + "/cc-compare.csv"));
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 31, "header and 30 rows");
        NS_TEST_EXPECT_MSG_EQ(rows[0], CcComparison::CSV_HEADER, "columns");
        std::map<std::string, int> perRun;
        for (size_t i = 1; i < rows.size(); ++i)
        {
            std::vector<std::string> f = Split(rows[i]);
            NS_TEST_ASSERT_MSG_EQ(f.size(), 16, "16 fields: " << rows[i]);
            ++perRun[f[0] + "/" + f[1]];
            NS_TEST_EXPECT_MSG_EQ(f[6], f[7], "every flow of the bucket done: " << rows[i]);
            if (!f[8].empty())
            {
                NS_TEST_EXPECT_MSG_GT(std::stod(f[8]), 0.99, "slowdown near 1 or above");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(perRun["hadoop30/dcqcn"], 7, "6 sizes and all");
        NS_TEST_EXPECT_MSG_EQ(perRun["hadoop30/none"], 7, "6 sizes and all");
        NS_TEST_EXPECT_MSG_EQ(perRun["websearch30+incast/dcqcn"], 8, "and incast");
        NS_TEST_EXPECT_MSG_EQ(perRun["websearch30+incast/none"], 8, "and incast");
        // The same flows (source, destination, bytes, incast, start) under both algorithms.
        std::map<std::string, std::vector<std::string>> flows;
        std::vector<std::string> fct = Lines(ReadText(dir + "/fct.csv"));
        NS_TEST_ASSERT_MSG_GT(fct.size(), 1, "flows written");
        NS_TEST_EXPECT_MSG_EQ(fct[0], CcComparison::FLOWS_HEADER, "flow columns");
        for (size_t i = 1; i < fct.size(); ++i)
        {
            std::vector<std::string> f = Split(fct[i]);
            flows[f[0] + "/" + f[1]].push_back(f[3] + " " + f[4] + " " + f[5] + " " + f[6] + " " +
                                               f[7]);
        }
        NS_TEST_EXPECT_MSG_EQ((flows["hadoop30/dcqcn"] == flows["hadoop30/none"]),
                              true,
                              "same Hadoop flows");
        NS_TEST_EXPECT_MSG_EQ(
            (flows["websearch30+incast/dcqcn"] == flows["websearch30+incast/none"]),
            true,
            "same WebSearch and incast flows");
        NS_TEST_EXPECT_MSG_NE(ReadText(dir + "/cc-compare.plt").find("cc-compare.png"),
                              std::string::npos,
                              "script names the PNG");
        if (HaveProgram("gnuplot"))
        {
            std::string png = ReadText(dir + "/cc-compare.png");
            NS_TEST_EXPECT_MSG_EQ((png.size() > 8 && png.substr(1, 3) == "PNG"), true, "a PNG");
        }
        else
        {
            ReportSkip(GetName(), "gnuplot is not installed: the PNG is not checked");
        }
        // Without gnuplot on the PATH: the tables and the script, a message, exit 0, no PNG.
        std::string bare = CreateTempDirFilename("cc-compare-bare");
        out = RunCommand("PATH=/nonexistent " + program + quick + " --traffic=hadoop30 " +
                             "--outDir='" + bare + "'",
                         status);
        NS_TEST_EXPECT_MSG_EQ(status, 0, "exit 0 without gnuplot: " << out);
        NS_TEST_EXPECT_MSG_NE(out.find("gnuplot is not installed"), std::string::npos, out);
        NS_TEST_EXPECT_MSG_EQ(access((bare + "/cc-compare.png").c_str(), F_OK), -1, "no PNG");
        NS_TEST_EXPECT_MSG_EQ(access((bare + "/cc-compare.plt").c_str(), F_OK), 0, "the script");
        // Bad lists: one line, exit 2.
        out = RunCommand(program + " --ccs=dcqcn,foo 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "unknown algorithm");
        NS_TEST_EXPECT_MSG_EQ(out.rfind("llm-fabric-cc-compare: --ccs: unknown congestion control "
                                        "'foo'",
                                        0),
                              0,
                              out);
        out = RunCommand(program + " --traffic=web30 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "bad traffic set");
        NS_TEST_EXPECT_MSG_EQ(out.rfind("llm-fabric-cc-compare: --traffic: 'web30' is not", 0),
                              0,
                              out);
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-train runs the README's main command: every rank finishes its iteration, the
 * records add up and nothing is lost; bad input exits 2 naming the option or the scenario key.
 */
class TrainExampleTestCase : public TestCase
{
  public:
    TrainExampleTestCase()
        : TestCase("llm-fabric-train: GPT-2 on 16 GPUs finishes; bad input exits 2 with its key")
    {
    }

  private:
    /**
     * @param path a CSV file.
     * @return its rows, header excluded.
     */
    static uint32_t CountRows(const std::string& path)
    {
        std::ifstream csv(path);
        std::string line;
        uint32_t rows = 0;
        while (std::getline(csv, line))
        {
            ++rows;
        }
        return rows == 0 ? 0 : rows - 1;
    }

    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-train", GetName());
        if (program.empty())
        {
            return;
        }
        std::string scenarios = std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios/";
        std::string dir = CreateTempDirFilename("train");
        int status = 0;
        std::string out = RunCommand(program + " --scenario='" + scenarios +
                                         "gpt2-small-16gpu.yaml' --outDir='" + dir + "' 2>&1",
                                     status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "the program succeeds: " << out);
        std::string json = ReadText(dir + "/summary.json");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "gpus"), 16, "16 GPUs");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "ranks_finished"), 16, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "drops"), 0, "PFC: no drop");
        NS_TEST_EXPECT_MSG_EQ(JsonNumber(json, "retransmitted_packets"), 0, "nothing resent");
        // One row per rank and iteration; one per collective and per transfer, as counted.
        NS_TEST_EXPECT_MSG_EQ(CountRows(dir + "/iterations.csv"), 16, "iterations.csv");
        NS_TEST_EXPECT_MSG_EQ(MissingFigures(dir, {"iterations", "fct-slowdown"}),
                              "",
                              "the iteration and FCT figures");
        NS_TEST_EXPECT_MSG_EQ(CountRows(dir + "/collectives.csv"),
                              JsonNumber(json, "collectives"),
                              "collectives.csv");
        NS_TEST_EXPECT_MSG_EQ(CountRows(dir + "/flows.csv"),
                              JsonNumber(json, "transfers"),
                              "flows.csv");
        // A collective cannot beat its line-rate time by more than the ideal model's
        // approximations (a full frame's store-and-forward per switch for every step's last
        // packet): at least 0.95.
        NS_TEST_EXPECT_MSG_GT(JsonNumber(json, "min", "collective_slowdown"),
                              0.95,
                              "collectives no faster than line rate");
        NS_TEST_EXPECT_MSG_GT(JsonNumber(json, "link_frames"), 0, "packets crossed the fabric");

        out = RunCommand(program + " 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "no scenario: exit 2");
        NS_TEST_EXPECT_MSG_NE(out.find("llm-fabric-train: --scenario: "), std::string::npos, out);
        out = RunCommand(program + " --scenario='" + scenarios +
                             "gpt2-small-16gpu.yaml' --cc=bbr 2>&1",
                         status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "unknown cc: exit 2");
        NS_TEST_EXPECT_MSG_NE(out.find("llm-fabric-train: --cc: "), std::string::npos, out);
        std::string bad = CreateTempDirFilename("bad-topology.yaml");
        std::ofstream(bad) << ReadText(scenarios + "gpt2-small-16gpu.yaml")
                           << "topology:\n  kind: torus\n";
        out = RunCommand(program + " --scenario='" + bad + "' 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, "a bad topology exits 2");
        NS_TEST_EXPECT_MSG_EQ(out.rfind(bad + ": topology.kind: unknown kind 'torus'", 0),
                              0,
                              "one line naming file and key: " << out);
    }
};

/**
 * @ingroup llm-fabric-tests
 * The example programs, run as a user runs them.
 */
class ExamplesTestSuite : public TestSuite
{
  public:
    ExamplesTestSuite()
        : TestSuite("llm-fabric-examples", Type::SYSTEM)
    {
        AddTestCase(new WireFormatsExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new WireFormatsBadInputTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcIncastExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IncastExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrafficReportExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DanteExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcHolExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new LeafSpineExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TrainExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CcCompareExampleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcDeadlockExampleTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static ExamplesTestSuite g_examplesTestSuite;

} // namespace tests
} // namespace llmfabric
