/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-format-reader.h"

#include "value-parser.h"

#include "ns3/log.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFormatReader");

namespace
{

/// The longest start time accepted, in seconds (the peer's times are doubles of seconds).
constexpr double MAX_START_SECONDS = 1e6;
/// The most nodes a topology may declare.
constexpr uint64_t MAX_NODES = 1000000;
/// The most links or flows a file may declare.
constexpr uint64_t MAX_ITEMS = 100000000;
/// The longest a value is shown in a message.
constexpr std::size_t SHOWN = 40;
/// No node, no link.
constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

/// Reads the non-blank lines of a text, as words, counting lines.
class Lines
{
  public:
    /**
     * @param in the text.
     * @param name the name messages start with.
     */
    Lines(std::istream& in, const std::string& name)
        : m_in(in),
          m_name(name)
    {
    }

    /**
     * Read the next non-blank line.
     * @param[out] words its words.
     * @return false at the end of the text.
     */
    bool Next(std::vector<std::string>& words)
    {
        std::string line;
        while (std::getline(m_in, line))
        {
            ++m_line;
            if (!line.empty() && line.back() == '\r')
            {
                line.pop_back();
            }
            words.clear();
            std::istringstream split(line);
            std::string word;
            while (split >> word)
            {
                words.push_back(word);
            }
            if (!words.empty())
            {
                return true;
            }
        }
        return false;
    }

    /// @return the number of the line read last.
    uint32_t GetLine() const
    {
        return m_line;
    }

    /**
     * @param reason a problem of the line read last.
     * @return "NAME: line N: reason".
     */
    std::string Problem(const std::string& reason) const
    {
        return Problem(m_line, reason);
    }

    /**
     * @param line a line.
     * @param reason its problem.
     * @return "NAME: line N: reason".
     */
    std::string Problem(uint32_t line, const std::string& reason) const
    {
        return ValueParser::Escape(m_name, 200) + ": line " + std::to_string(line) + ": " + reason;
    }

  private:
    std::istream& m_in; //!< the text
    std::string m_name; //!< its name
    uint32_t m_line{0}; //!< lines read
};

/**
 * Read a whole number.
 * @param text the word.
 * @param what what it is, for the message.
 * @param maximum the largest value.
 * @param[out] value its value.
 * @return "" or why it is refused.
 */
std::string
ReadWhole(const std::string& text, const std::string& what, uint64_t maximum, uint64_t& value)
{
    bool overflow = false;
    if (!ValueParser::ParseDecimal(text, value, overflow))
    {
        return what + " " + ValueParser::Quote(text, SHOWN) + " is not a whole number";
    }
    if (overflow || value > maximum)
    {
        return what + " " + ValueParser::Quote(text, SHOWN) + " is above " +
               std::to_string(maximum);
    }
    return "";
}

/**
 * Read a node id.
 * @param text the word.
 * @param what what it is, for the message.
 * @param nodes the node count.
 * @param[out] node its value.
 * @return "" or why it is refused.
 */
std::string
ReadNode(const std::string& text, const std::string& what, uint32_t nodes, uint32_t& node)
{
    uint64_t value = 0;
    std::string problem = ReadWhole(text, what, std::numeric_limits<uint32_t>::max(), value);
    if (problem.empty() && value >= nodes)
    {
        problem = what + " " + text + " is not a node (the ids are 0 to " +
                  std::to_string(nodes - 1) + ")";
    }
    node = static_cast<uint32_t>(value);
    return problem;
}

/**
 * Read the counts line of a topology file.
 * @param lines the file.
 * @param words the line.
 * @param[out] topology its node count and format.
 * @param[out] switches the switch count.
 * @param[out] links the link count.
 * @return "" or the problem.
 */
std::string
ReadCounts(const Lines& lines,
           const std::vector<std::string>& words,
           HpccFormatReader::Topology& topology,
           uint64_t& switches,
           uint64_t& links)
{
    if (words.size() != 3 && words.size() != 6)
    {
        return lines.Problem("expected \"nodes switches links\" or \"nodes gpus_per_server "
                             "nvswitches switches links gpu_type\", found " +
                             std::to_string(words.size()) + " fields");
    }
    topology.simai = words.size() == 6;
    uint64_t nodes = 0;
    std::string problem = ReadWhole(words[0], "nodes", MAX_NODES, nodes);
    if (problem.empty() && nodes < 2)
    {
        problem = "nodes " + words[0] + ": at least 2 are needed";
    }
    if (problem.empty() && topology.simai)
    {
        uint64_t gpus = 0;
        uint64_t nvswitches = 0;
        problem = ReadWhole(words[1], "gpus_per_server", MAX_NODES, gpus);
        if (problem.empty() && gpus != 1)
        {
            problem = "gpus_per_server " + words[1] +
                      ": servers of several GPUs joined by NVLink are not modelled; only 1";
        }
        if (problem.empty())
        {
            problem = ReadWhole(words[2], "nvswitches", MAX_NODES, nvswitches);
        }
        if (problem.empty() && nvswitches != 0)
        {
            problem = "nvswitches " + words[2] + ": NVSwitches are not modelled; only 0";
        }
    }
    const size_t first = topology.simai ? 3 : 1;
    if (problem.empty())
    {
        problem = ReadWhole(words[first], "switches", MAX_NODES, switches);
    }
    if (problem.empty() && switches >= nodes)
    {
        problem = "switches " + words[first] + ": must be fewer than the nodes (" + words[0] + ")";
    }
    if (problem.empty())
    {
        problem = ReadWhole(words[first + 1], "links", MAX_ITEMS, links);
    }
    if (!problem.empty())
    {
        return lines.Problem(problem);
    }
    topology.nodes = static_cast<uint32_t>(nodes);
    return "";
}

/**
 * Read a link line.
 * @param lines the file.
 * @param words the line.
 * @param topology the topology so far.
 * @param[out] link the link.
 * @return "" or the problem.
 */
std::string
ReadLink(const Lines& lines,
         const std::vector<std::string>& words,
         const HpccFormatReader::Topology& topology,
         HpccFormatReader::Link& link)
{
    if (words.size() != 5)
    {
        return lines.Problem("expected \"a b rate delay error_rate\", found " +
                             std::to_string(words.size()) + " fields");
    }
    std::string problem = ReadNode(words[0], "node", topology.nodes, link.a);
    if (problem.empty())
    {
        problem = ReadNode(words[1], "node", topology.nodes, link.b);
    }
    if (problem.empty() && link.a == link.b)
    {
        problem = "a link from node " + words[0] + " to itself";
    }
    if (problem.empty() && !ValueParser::ParseRate(words[2], link.rate))
    {
        problem = "rate " + ValueParser::Quote(words[2], SHOWN) +
                  " is not a positive rate such as 100Gbps";
    }
    double seconds = 0;
    if (problem.empty() && (!ValueParser::ParseDelay(words[3], seconds, link.delay) ||
                            seconds < 0 || seconds > ValueParser::MAX_DELAY_SECONDS))
    {
        problem = "delay " + ValueParser::Quote(words[3], SHOWN) +
                  " is not a delay such as 1us (0 to 1 s)";
    }
    double errorRate = 0;
    if (problem.empty() && !ValueParser::ParseNumber(words[4], errorRate))
    {
        problem = "error rate " + ValueParser::Quote(words[4], SHOWN) + " is not a number";
    }
    if (problem.empty() && errorRate != 0)
    {
        problem = "error rate " + words[4] + ": random packet loss is not modelled; only 0";
    }
    link.line = lines.GetLine();
    return problem.empty() ? "" : lines.Problem(problem);
}

} // namespace

std::string
HpccFormatReader::ReadTopology(const std::string& path, Topology& topology)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path);
    if (!in)
    {
        return ValueParser::Escape(path, 200) + ": cannot open";
    }
    return ParseTopology(in, path, topology);
}

std::string
HpccFormatReader::ParseTopology(std::istream& in, const std::string& name, Topology& topology)
{
    topology = Topology();
    Lines lines(in, name);
    std::vector<std::string> words;
    if (!lines.Next(words))
    {
        return lines.Problem(1, "empty file: expected the counts line");
    }
    uint64_t switches = 0;
    uint64_t links = 0;
    std::string problem = ReadCounts(lines, words, topology, switches, links);
    if (!problem.empty())
    {
        return problem;
    }
    const uint32_t countsLine = lines.GetLine();
    topology.isSwitch.assign(topology.nodes, false);
    if (switches > 0)
    {
        if (!lines.Next(words))
        {
            return lines.Problem(lines.GetLine() + 1, "file ends before the switch ids");
        }
        if (words.size() != switches)
        {
            return lines.Problem("expected the " + std::to_string(switches) +
                                 " switch ids of the counts line, found " +
                                 std::to_string(words.size()));
        }
        for (const std::string& word : words)
        {
            uint32_t id = 0;
            problem = ReadNode(word, "switch", topology.nodes, id);
            if (problem.empty() && topology.isSwitch[id])
            {
                problem = "switch " + word + " is listed twice";
            }
            if (!problem.empty())
            {
                return lines.Problem(problem);
            }
            topology.isSwitch[id] = true;
            topology.switches.push_back(id);
        }
    }
    std::set<std::pair<uint32_t, uint32_t>> seen;
    std::vector<uint32_t> hostLink(topology.nodes, 0); // line of a host's link
    for (uint64_t l = 0; l < links; ++l)
    {
        if (!lines.Next(words))
        {
            return lines.Problem(lines.GetLine() + 1,
                                 "file ends after " + std::to_string(l) +
                                     " links; the counts line says " + std::to_string(links));
        }
        Link link;
        problem = ReadLink(lines, words, topology, link);
        if (!problem.empty())
        {
            return problem;
        }
        if (!seen.insert({std::min(link.a, link.b), std::max(link.a, link.b)}).second)
        {
            return lines.Problem("a second link between nodes " + std::to_string(link.a) + " and " +
                                 std::to_string(link.b));
        }
        for (uint32_t end : {link.a, link.b})
        {
            if (!topology.isSwitch[end] && hostLink[end] != 0)
            {
                return lines.Problem("host " + std::to_string(end) + " has a second link (the " +
                                     "first on line " + std::to_string(hostLink[end]) +
                                     "): a host has one port here");
            }
            hostLink[end] = topology.isSwitch[end] ? 0 : lines.GetLine();
        }
        topology.links.push_back(link);
    }
    if (lines.Next(words))
    {
        return lines.Problem("trailing text after the " + std::to_string(links) +
                             " links of the counts line");
    }
    for (uint32_t n = 0; n < topology.nodes; ++n)
    {
        if (!topology.isSwitch[n] && hostLink[n] == 0)
        {
            return lines.Problem(countsLine, "host " + std::to_string(n) + " has no link");
        }
    }
    return "";
}

std::string
HpccFormatReader::ReadFlows(const std::string& path,
                            const Topology& topology,
                            uint32_t dataPriority,
                            std::vector<Flow>& flows)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path);
    if (!in)
    {
        return ValueParser::Escape(path, 200) + ": cannot open";
    }
    return ParseFlows(in, path, topology, dataPriority, flows);
}

std::string
HpccFormatReader::ParseFlows(std::istream& in,
                             const std::string& name,
                             const Topology& topology,
                             uint32_t dataPriority,
                             std::vector<Flow>& flows)
{
    flows.clear();
    Lines lines(in, name);
    std::vector<std::string> words;
    if (!lines.Next(words))
    {
        return lines.Problem(1, "empty file: expected the flow count");
    }
    uint64_t count = 0;
    std::string problem = words.size() == 1 ? ReadWhole(words[0], "flow count", MAX_ITEMS, count)
                                            : "expected the flow count alone, found " +
                                                  std::to_string(words.size()) + " fields";
    if (problem.empty() && count == 0)
    {
        problem = "flow count 0: no flow to run";
    }
    if (!problem.empty())
    {
        return lines.Problem(problem);
    }
    std::vector<std::vector<uint32_t>> distances(topology.nodes); // by source, when needed
    for (uint64_t f = 0; f < count; ++f)
    {
        if (!lines.Next(words))
        {
            return lines.Problem(lines.GetLine() + 1,
                                 "file ends after " + std::to_string(f) +
                                     " flows; the first line says " + std::to_string(count));
        }
        if (words.size() != 6)
        {
            return lines.Problem("expected \"src dst priority dport bytes start_seconds\", "
                                 "found " +
                                 std::to_string(words.size()) + " fields");
        }
        Flow flow;
        flow.line = lines.GetLine();
        problem = ReadNode(words[0], "src", topology.nodes, flow.src);
        if (problem.empty())
        {
            problem = ReadNode(words[1], "dst", topology.nodes, flow.dst);
        }
        for (uint32_t end : {flow.src, flow.dst})
        {
            if (problem.empty() && topology.isSwitch[end])
            {
                problem = "node " + std::to_string(end) + " is a switch, not a host";
            }
        }
        if (problem.empty() && flow.src == flow.dst)
        {
            problem = "a flow from host " + words[0] + " to itself";
        }
        uint64_t value = 0;
        if (problem.empty())
        {
            problem = ReadWhole(words[2], "priority", 7, value);
            flow.priority = static_cast<uint32_t>(value);
        }
        if (problem.empty() && flow.priority != dataPriority)
        {
            problem = "priority " + words[2] + ": RDMA data goes on priority " +
                      std::to_string(dataPriority) +
                      " (ns3::RdmaEndpoint::DataDscp / 8); per-flow priorities are not modelled";
        }
        if (problem.empty())
        {
            problem = ReadWhole(words[3], "dport", 65535, value);
            flow.dport = static_cast<uint32_t>(value);
        }
        if (problem.empty())
        {
            problem = ReadWhole(words[4], "bytes", std::numeric_limits<uint64_t>::max(), value);
            flow.bytes = value;
        }
        if (problem.empty() && flow.bytes == 0)
        {
            problem = "bytes 0: a flow carries at least 1 byte";
        }
        double start = 0;
        if (problem.empty() &&
            (!ValueParser::ParseNumber(words[5], start) || start < 0 || start > MAX_START_SECONDS))
        {
            problem = "start " + ValueParser::Quote(words[5], SHOWN) +
                      " is not a time in seconds from 0 to 1e6";
        }
        if (problem.empty())
        {
            flow.start = Seconds(start);
            if (!flows.empty() && flow.start < flows.back().start)
            {
                problem = "start " + words[5] + " s is before the previous flow's (the flows " +
                          "are posted in file order; sort them by start time)";
            }
        }
        if (problem.empty())
        {
            std::vector<uint32_t>& d = distances[flow.src];
            std::vector<uint32_t> previous;
            d = d.empty() ? Distances(topology, flow.src, previous) : d;
            if (d[flow.dst] == NONE)
            {
                problem = "no path from host " + words[0] + " to host " + words[1];
            }
        }
        if (!problem.empty())
        {
            return lines.Problem(problem);
        }
        flows.push_back(flow);
    }
    if (lines.Next(words))
    {
        return lines.Problem("trailing text after the " + std::to_string(count) +
                             " flows of the first line");
    }
    return "";
}

uint32_t
HpccFormatReader::PeerAddress(uint32_t node)
{
    return 0x0b000001U + 256U * node;
}

std::vector<uint32_t>
HpccFormatReader::Distances(const Topology& topology,
                            uint32_t src,
                            std::vector<uint32_t>& previousLink)
{
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adjacent(topology.nodes);
    for (uint32_t l = 0; l < topology.links.size(); ++l)
    {
        const Link& link = topology.links[l];
        adjacent[link.a].emplace_back(link.b, l);
        adjacent[link.b].emplace_back(link.a, l);
    }
    for (auto& neighbours : adjacent)
    {
        std::sort(neighbours.begin(), neighbours.end());
    }
    std::vector<uint32_t> distance(topology.nodes, NONE);
    previousLink.assign(topology.nodes, NONE);
    std::deque<uint32_t> queue{src};
    distance[src] = 0;
    while (!queue.empty())
    {
        uint32_t n = queue.front();
        queue.pop_front();
        if (n != src && !topology.isSwitch[n])
        {
            continue; // hosts do not forward
        }
        for (const auto& [m, l] : adjacent[n])
        {
            if (distance[m] == NONE)
            {
                distance[m] = distance[n] + 1;
                previousLink[m] = l;
                queue.push_back(m);
            }
        }
    }
    return distance;
}

std::vector<uint32_t>
HpccFormatReader::ShortestPath(const Topology& topology, uint32_t src, uint32_t dst)
{
    std::vector<uint32_t> previous;
    std::vector<uint32_t> distance = Distances(topology, src, previous);
    if (distance[dst] == NONE)
    {
        return {};
    }
    return PathTo(topology, previous, src, dst);
}

std::vector<uint32_t>
HpccFormatReader::PathTo(const Topology& topology,
                         const std::vector<uint32_t>& previousLink,
                         uint32_t src,
                         uint32_t dst)
{
    std::vector<uint32_t> path;
    for (uint32_t n = dst; n != src;)
    {
        const Link& link = topology.links[previousLink[n]];
        path.push_back(previousLink[n]);
        n = link.a == n ? link.b : link.a;
    }
    std::reverse(path.begin(), path.end());
    return path;
}

} // namespace ns3
