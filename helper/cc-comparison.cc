/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-comparison.h"

#include "figure-script.h"
#include "flow-statistics.h"
#include "rdma-helper.h"

#include "ns3/flow-size-distribution.h"
#include "ns3/log.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/type-id-alias.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcComparison");

namespace
{

/// The congestion controls left out of the default list: no control at all, and a fixed rate.
const char* const NOT_COMPARED[] = {"none", "fixed"};

/// The slowdown percentiles of the table and the plot, and their column names.
const std::pair<double, const char*> SLOWDOWN_PERCENTILES[] = {{0.50, "p50"},
                                                               {0.95, "p95"},
                                                               {0.99, "p99"}};

/// The columns of the bucket table that the gnuplot script reads (counted from 1).
constexpr int COLUMN_TRAFFIC = 1;       //!< traffic
constexpr int COLUMN_CC = 2;            //!< cc
constexpr int COLUMN_INDEX = 4;         //!< bucket_index
constexpr int COLUMN_FIRST_P = 9;       //!< slowdown_p50; p95 and p99 follow
constexpr double PANEL_HEIGHT_PX = 330; //!< height of one row of panels

/**
 * @param list a comma-separated list.
 * @return its items (empty items kept, so that a caller can refuse them).
 */
std::vector<std::string>
SplitList(const std::string& list)
{
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(list);
    while (std::getline(in, item, ','))
    {
        items.push_back(item);
    }
    if (!list.empty() && list.back() == ',')
    {
        items.emplace_back();
    }
    return items;
}

/**
 * @param bytes a size.
 * @return it in K (10^3), M (10^6) or G (10^9) when it is a whole number of them, e.g. "10K".
 */
std::string
SizeName(uint64_t bytes)
{
    const std::pair<uint64_t, const char*> units[] = {{1000000000, "G"},
                                                      {1000000, "M"},
                                                      {1000, "K"}};
    for (const auto& [unit, suffix] : units)
    {
        if (bytes >= unit && bytes % unit == 0)
        {
            return std::to_string(bytes / unit) + suffix;
        }
    }
    return std::to_string(bytes);
}

} // namespace

const char* const CcComparison::CSV_HEADER =
    "traffic,cc,bucket,bucket_index,min_bytes,max_bytes,flows,flows_done,slowdown_p50,"
    "slowdown_p95,slowdown_p99,queue_p50_bytes,queue_p99_bytes,queue_max_bytes,pfc_pauses,"
    "utilization";

const char* const CcComparison::FLOWS_HEADER =
    "traffic,cc,flow,source,destination,bytes,incast,start_us,fct_us,ideal_us,slowdown";

CcComparison::CcComparison()
    : m_edges{1000, 10000, 100000, 1000000, 10000000}
{
    NS_LOG_FUNCTION(this);
}

std::string
CcComparison::SetBucketEdges(const std::vector<uint64_t>& edges)
{
    for (size_t i = 0; i < edges.size(); ++i)
    {
        if (edges[i] == 0 || (i > 0 && edges[i] <= edges[i - 1]))
        {
            return "bucket edges must increase from above 0 (edge " + std::to_string(i + 1) + ": " +
                   std::to_string(edges[i]) + ")";
        }
    }
    m_edges = edges;
    return "";
}

const std::vector<uint64_t>&
CcComparison::GetBucketEdges() const
{
    return m_edges;
}

uint32_t
CcComparison::GetBucketCount() const
{
    return static_cast<uint32_t>(m_edges.size() + 1);
}

uint32_t
CcComparison::GetBucket(uint64_t bytes) const
{
    return static_cast<uint32_t>(std::upper_bound(m_edges.begin(), m_edges.end(), bytes) -
                                 m_edges.begin());
}

std::string
CcComparison::GetBucketName(uint32_t bucket) const
{
    if (m_edges.empty())
    {
        return "all sizes";
    }
    if (bucket == 0)
    {
        return "<" + SizeName(m_edges.front());
    }
    if (bucket >= m_edges.size())
    {
        return ">=" + SizeName(m_edges.back());
    }
    return SizeName(m_edges[bucket - 1]) + "-" + SizeName(m_edges[bucket]);
}

void
CcComparison::AddRun(RunResult run)
{
    m_runs.push_back(std::move(run));
}

const std::vector<CcComparison::RunResult>&
CcComparison::GetRuns() const
{
    return m_runs;
}

double
CcComparison::Percentile(std::vector<double> values, double q)
{
    if (values.empty())
    {
        return std::nan("");
    }
    double rank = std::ceil(std::min(std::max(q, 0.0), 1.0) * static_cast<double>(values.size()));
    size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    std::nth_element(values.begin(), values.begin() + index, values.end());
    return values[index];
}

void
CcComparison::WriteBucketRow(std::ostream& out,
                             const RunResult& run,
                             const std::string& name,
                             int index,
                             const std::vector<const FlowResult*>& flows) const
{
    std::vector<double> slowdowns;
    for (const FlowResult* flow : flows)
    {
        if (flow->done)
        {
            slowdowns.push_back(flow->fctUs / flow->idealUs);
        }
    }
    out << run.traffic << "," << run.cc << "," << name << ",";
    if (index >= 0)
    {
        auto i = static_cast<size_t>(index);
        out << index << "," << (i == 0 ? 0 : m_edges[i - 1]) << ",";
        if (i < m_edges.size())
        {
            out << m_edges[i];
        }
    }
    else
    {
        out << ",,";
    }
    out << "," << flows.size() << "," << slowdowns.size();
    for (const auto& [q, column] : SLOWDOWN_PERCENTILES)
    {
        out << ",";
        if (!slowdowns.empty())
        {
            out << Percentile(slowdowns, q);
        }
    }
    out << "," << run.queueP50Bytes << "," << run.queueP99Bytes << "," << run.queueMaxBytes << ","
        << run.pfcPauses << "," << run.utilization << "\n";
}

std::string
CcComparison::WriteCsv(const std::string& path) const
{
    std::ofstream out(path);
    out << std::setprecision(6) << CSV_HEADER << "\n";
    for (const RunResult& run : m_runs)
    {
        std::vector<std::vector<const FlowResult*>> buckets(GetBucketCount());
        std::vector<const FlowResult*> all;
        std::vector<const FlowResult*> incast;
        for (const FlowResult& flow : run.flows)
        {
            all.push_back(&flow);
            if (flow.incast)
            {
                incast.push_back(&flow);
            }
            else
            {
                buckets[GetBucket(flow.bytes)].push_back(&flow);
            }
        }
        for (uint32_t b = 0; b < GetBucketCount(); ++b)
        {
            WriteBucketRow(out, run, GetBucketName(b), static_cast<int>(b), buckets[b]);
        }
        WriteBucketRow(out, run, "all", -1, all);
        if (!incast.empty())
        {
            WriteBucketRow(out, run, "incast", -1, incast);
        }
    }
    out.close();
    return out ? "" : path + ": cannot be written";
}

std::string
CcComparison::WriteFlowsCsv(const std::string& path) const
{
    std::ofstream out(path);
    out << std::setprecision(10) << FLOWS_HEADER << "\n";
    for (const RunResult& run : m_runs)
    {
        for (size_t i = 0; i < run.flows.size(); ++i)
        {
            const FlowResult& f = run.flows[i];
            out << run.traffic << "," << run.cc << "," << i << "," << f.source << ","
                << f.destination << "," << f.bytes << "," << (f.incast ? 1 : 0) << "," << f.startUs
                << ",";
            if (f.done)
            {
                out << f.fctUs << "," << f.idealUs << "," << f.fctUs / f.idealUs;
            }
            else
            {
                out << ",,";
            }
            out << "\n";
        }
    }
    out.close();
    return out ? "" : path + ": cannot be written";
}

std::string
CcComparison::WriteGnuplotScript(const std::string& path,
                                 const std::string& csvName,
                                 const std::string& pngName) const
{
    std::vector<std::string> traffic;
    std::vector<std::string> ccs;
    for (const RunResult& run : m_runs)
    {
        if (std::find(traffic.begin(), traffic.end(), run.traffic) == traffic.end())
        {
            traffic.push_back(run.traffic);
        }
        if (std::find(ccs.begin(), ccs.end(), run.cc) == ccs.end())
        {
            ccs.push_back(run.cc);
        }
    }
    std::ofstream out(path);
    out << "# FCT slowdown by flow size, one line per congestion control (llm-fabric-cc-compare).\n"
        << "# Reads " << csvName << " (written with this script); run: gnuplot " << path << "\n"
        << "set terminal pngcairo size 1500,"
        << std::max<size_t>(1, traffic.size()) * PANEL_HEIGHT_PX << " font \",10\"\n"
        << "set output " << FigureScript::Quote(pngName) << "\n"
        << "set datafile separator \",\"\n"
        << "set logscale y\nset yrange [0.9:*]\nset grid ytics\nset key top right\n"
        << "set xlabel \"flow size (bytes)\"\nset ylabel \"FCT slowdown\"\n"
        << "set xrange [-0.5:" << GetBucketCount() - 0.5 << "]\nset xtics (";
    for (uint32_t b = 0; b < GetBucketCount(); ++b)
    {
        out << (b ? ", " : "") << FigureScript::Quote(GetBucketName(b)) << " " << b;
    }
    out << ")\nccs = " << FigureScript::Quote([&ccs]() {
        std::string words;
        for (const auto& cc : ccs)
        {
            words += (words.empty() ? "" : " ") + cc;
        }
        return words;
    }()) << "\n";
    out << "set multiplot layout " << std::max<size_t>(1, traffic.size())
        << ",3 title \"FCT slowdown by flow size\"\n";
    for (const auto& set : traffic)
    {
        for (int p = 0; p < 3; ++p)
        {
            out << "set title " << FigureScript::Quote(set + ": " + SLOWDOWN_PERCENTILES[p].second)
                << "\nplot for [cc in ccs] " << FigureScript::Quote(csvName) << " every ::1 using "
                << "((strcol(" << COLUMN_TRAFFIC << ") eq " << FigureScript::Quote(set)
                << " && strcol(" << COLUMN_CC << ") eq cc) ? column(" << COLUMN_INDEX
                << ") : NaN):(column(" << COLUMN_FIRST_P + p << ")) with linespoints title cc\n";
        }
    }
    out << "unset multiplot\n";
    out.close();
    return out ? "" : path + ": cannot be written";
}

std::string
CcComparison::ParseTrafficSets(const std::string& list, std::vector<TrafficSet>& sets)
{
    std::vector<TrafficSet> parsed;
    const std::vector<std::string> cdfs = FlowSizeDistribution::GetBuiltInNames();
    const std::string suffix = "+incast";
    for (const std::string& name : SplitList(list))
    {
        TrafficSet set;
        set.name = name;
        std::string base = name;
        if (base.size() > suffix.size() &&
            base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            set.incast = true;
            base.resize(base.size() - suffix.size());
        }
        size_t digits = base.find_first_of("0123456789");
        std::string percent = digits == std::string::npos ? "" : base.substr(digits);
        set.cdf = base.substr(0, digits);
        bool known = std::find(cdfs.begin(), cdfs.end(), set.cdf) != cdfs.end();
        bool number = !percent.empty() && percent.size() <= 3 &&
                      percent.find_first_not_of("0123456789") == std::string::npos &&
                      std::stoi(percent) >= 1 && std::stoi(percent) <= 100;
        if (!known || !number)
        {
            return "'" + name +
                   "' is not a traffic set: write <distribution><load percent>[+incast], the "
                   "distribution one of websearch, hadoop and the load 1 to 100 (e.g. "
                   "websearch30, hadoop50+incast)";
        }
        for (const TrafficSet& other : parsed)
        {
            if (other.name == name)
            {
                return "'" + name + "' is given twice";
            }
        }
        set.load = std::stoi(percent) / 100.0;
        parsed.push_back(set);
    }
    if (parsed.empty())
    {
        return "no traffic set given";
    }
    sets = parsed;
    return "";
}

std::vector<std::string>
CcComparison::GetDefaultCongestionControls()
{
    std::vector<std::string> names;
    std::set<TypeId> seen;
    for (const std::string& alias : TypeIdAlias::GetAliases(RdmaCongestionOps::GetTypeId()))
    {
        TypeId tid;
        if (std::find(std::begin(NOT_COMPARED), std::end(NOT_COMPARED), alias) !=
                std::end(NOT_COMPARED) ||
            !RdmaHelper::LookupCongestionControl(alias, tid).empty() || !seen.insert(tid).second)
        {
            continue;
        }
        names.push_back(alias);
    }
    return names;
}

std::string
CcComparison::ParseCongestionControls(const std::string& list,
                                      std::vector<std::pair<std::string, TypeId>>& ccs)
{
    std::vector<std::pair<std::string, TypeId>> parsed;
    for (const std::string& name : SplitList(list))
    {
        TypeId tid;
        std::string problem = RdmaHelper::LookupCongestionControl(name, tid);
        if (!problem.empty())
        {
            return problem;
        }
        for (const auto& [other, otherTid] : parsed)
        {
            if (otherTid == tid)
            {
                return "'" + name + "' names the same algorithm as '" + other + "'";
            }
        }
        parsed.emplace_back(name, tid);
    }
    if (parsed.empty())
    {
        return "no congestion control given";
    }
    ccs = parsed;
    return "";
}

RoceTopologyHelper::LeafSpineConfig
CcComparison::GetDefaultLeafSpine()
{
    // hostsPerLeaf, leaves, spines, hostRate, hostDelay, fabricRate, fabricDelay
    return {8, 4, 2, DataRate("100Gbps"), MicroSeconds(1), DataRate("400Gbps"), MicroSeconds(1)};
}

std::vector<DataRate>
CcComparison::LeafSpinePath(const RoceTopologyHelper::LeafSpineConfig& shape,
                            uint32_t source,
                            uint32_t destination)
{
    if (source / shape.hostsPerLeaf == destination / shape.hostsPerLeaf)
    {
        return {shape.hostRate, shape.hostRate};
    }
    return {shape.hostRate, shape.fabricRate, shape.fabricRate, shape.hostRate};
}

Time
CcComparison::LeafSpineBaseRtt(const RoceTopologyHelper::LeafSpineConfig& shape, uint32_t mtu)
{
    std::vector<DataRate> path = shape.leaves >= 2 ? LeafSpinePath(shape, 0, shape.hostsPerLeaf)
                                                   : LeafSpinePath(shape, 0, 1);
    double ns = FlowStatistics::IdealFctNs(mtu, mtu, path, shape.hostDelay);
    return PicoSeconds(static_cast<int64_t>(std::llround(ns * 1000.0)));
}

} // namespace ns3
