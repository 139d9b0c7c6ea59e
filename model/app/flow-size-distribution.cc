/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-size-distribution.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSizeDistribution");

namespace
{

/**
 * Web search (DCTCP paper: M. Alizadeh, A. Greenberg, D. A. Maltz, J. Padhye, P. Patel,
 * B. Prabhakar, S. Sengupta, M. Sridharan, "Data Center TCP (DCTCP)", ACM SIGCOMM 2010,
 * Figure 4), as published with the HPCC paper's traffic generator (WebSearch_distribution.txt).
 * Data points: (flow size in bytes, cumulative percent).
 */
const FlowSizeDistribution::Point WEB_SEARCH[] = {
    {0, 0},
    {10000, 15},
    {20000, 20},
    {30000, 30},
    {50000, 40},
    {80000, 53},
    {200000, 60},
    {1000000, 70},
    {2000000, 80},
    {5000000, 90},
    {10000000, 97},
    {30000000, 100},
};

/**
 * Hadoop cluster at Facebook (A. Roy, H. Zeng, J. Bagga, G. Porter, A. C. Snoeren, "Inside the
 * Social Network's (Datacenter) Network", ACM SIGCOMM 2015, Figure 6), as published with the
 * HPCC paper's traffic generator (FbHdp_distribution.txt). Data points: (flow size in bytes,
 * cumulative percent).
 */
const FlowSizeDistribution::Point HADOOP[] = {
    {0, 0},       {100, 1},     {200, 2},        {300, 5},      {350, 15},
    {400, 20},    {500, 30},    {600, 40},       {700, 50},     {1000, 60},
    {2000, 67},   {7000, 70},   {30000, 72},     {50000, 82},   {80000, 87},
    {120000, 90}, {300000, 95}, {1000000, 97.5}, {2000000, 99}, {10000000, 100},
};

/// @return s in lower case.
std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

/// @return a number as the input wrote it (shortest form that reads back the same).
std::string
Show(double x)
{
    std::ostringstream os;
    os.precision(15);
    os << x;
    return os.str();
}

} // namespace

FlowSizeDistribution::FlowSizeDistribution()
{
}

std::string
FlowSizeDistribution::Load(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    std::ifstream in(path);
    if (!in)
    {
        return path + ": cannot open the file";
    }
    return Parse(in, path);
}

std::string
FlowSizeDistribution::LoadBuiltIn(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    std::string key = Lower(name);
    if (key == "websearch")
    {
        return SetPoints(std::vector<Point>(std::begin(WEB_SEARCH), std::end(WEB_SEARCH)),
                         "websearch");
    }
    if (key == "hadoop")
    {
        return SetPoints(std::vector<Point>(std::begin(HADOOP), std::end(HADOOP)), "hadoop");
    }
    return "unknown built-in distribution '" + name + "' (websearch or hadoop)";
}

std::string
FlowSizeDistribution::LoadByName(const std::string& nameOrPath)
{
    std::string key = Lower(nameOrPath);
    for (const auto& builtIn : GetBuiltInNames())
    {
        if (key == builtIn)
        {
            return LoadBuiltIn(builtIn);
        }
    }
    return Load(nameOrPath);
}

std::vector<std::string>
FlowSizeDistribution::GetBuiltInNames()
{
    return {"websearch", "hadoop"};
}

std::string
FlowSizeDistribution::Parse(std::istream& in, const std::string& source)
{
    NS_LOG_FUNCTION(this << source);
    std::vector<Point> points;
    std::vector<uint32_t> lines;
    std::string line;
    uint32_t number = 0;
    while (std::getline(in, line))
    {
        ++number;
        std::istringstream words(line);
        std::string size;
        std::string percent;
        std::string extra;
        if (!(words >> size) || size[0] == '#')
        {
            continue; // blank line or comment
        }
        std::string where = source + ": line " + std::to_string(number) + ": ";
        if (!(words >> percent) || (words >> extra))
        {
            return where + "expected \"size_bytes cumulative_percent\"";
        }
        if (!std::all_of(size.begin(), size.end(), [](unsigned char c) { return std::isdigit(c); }))
        {
            return where + "size '" + size + "' is not a whole number of bytes";
        }
        errno = 0;
        unsigned long long bytes = std::strtoull(size.c_str(), nullptr, 10);
        if (errno == ERANGE)
        {
            return where + "size '" + size + "' is too large";
        }
        char* end = nullptr;
        double p = std::strtod(percent.c_str(), &end);
        if (end != percent.c_str() + percent.size() || !std::isfinite(p))
        {
            return where + "cumulative percent '" + percent + "' is not a number";
        }
        points.emplace_back(bytes, p);
        lines.push_back(number);
    }
    if (in.bad())
    {
        return source + ": read error";
    }
    std::string problem = SetPoints(points, source);
    if (!problem.empty() && !points.empty())
    {
        // SetPoints counts points; name the file's line instead.
        std::string prefix = source + ": line ";
        if (problem.compare(0, prefix.size(), prefix) == 0)
        {
            size_t colon = problem.find(':', prefix.size());
            uint32_t index = std::stoul(problem.substr(prefix.size(), colon - prefix.size()));
            problem = prefix + std::to_string(lines[index - 1]) + problem.substr(colon);
        }
    }
    return problem;
}

std::string
FlowSizeDistribution::SetPoints(const std::vector<Point>& points, const std::string& source)
{
    NS_LOG_FUNCTION(this << source << points.size());
    if (points.empty())
    {
        return source + ": no points (expected lines \"size_bytes cumulative_percent\")";
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        std::string where = source + ": line " + std::to_string(i + 1) + ": ";
        double p = points[i].second;
        if (!(p >= 0 && p <= 100))
        {
            return where + "cumulative percent " + Show(p) + " is outside 0..100";
        }
        if (i > 0 && points[i].first < points[i - 1].first)
        {
            return where + "size " + std::to_string(points[i].first) +
                   " is below the previous size " + std::to_string(points[i - 1].first);
        }
        if (i > 0 && p < points[i - 1].second)
        {
            return where + "cumulative percent " + Show(p) + " is below the previous percent " +
                   Show(points[i - 1].second);
        }
    }
    if (points.back().second != 100)
    {
        return source + ": line " + std::to_string(points.size()) +
               ": the last cumulative percent is " + Show(points.back().second) + ", not 100";
    }
    m_points = points;
    return "";
}

bool
FlowSizeDistribution::IsLoaded() const
{
    return !m_points.empty();
}

const std::vector<FlowSizeDistribution::Point>&
FlowSizeDistribution::GetPoints() const
{
    return m_points;
}

uint64_t
FlowSizeDistribution::Sample(double u) const
{
    if (m_points.empty())
    {
        return 0;
    }
    double p = 100 * std::min(1.0, std::max(0.0, u));
    if (p <= m_points.front().second)
    {
        return m_points.front().first;
    }
    // The first point whose percent reaches p; it exists since the last percent is 100.
    auto it =
        std::lower_bound(m_points.begin(), m_points.end(), p, [](const Point& point, double value) {
            return point.second < value;
        });
    if (it == m_points.end())
    {
        return m_points.back().first;
    }
    const Point& hi = *it;
    const Point& lo = *(it - 1); // lo.second < p <= hi.second, so the segment has a width
    double x0 = static_cast<double>(lo.first);
    double x1 = static_cast<double>(hi.first);
    double x = x0 + (x1 - x0) * (p - lo.second) / (hi.second - lo.second);
    return static_cast<uint64_t>(std::llround(x));
}

double
FlowSizeDistribution::GetMean() const
{
    if (m_points.empty())
    {
        return 0;
    }
    double mean = static_cast<double>(m_points.front().first) * m_points.front().second / 100;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        double mass = (m_points[i].second - m_points[i - 1].second) / 100;
        mean +=
            mass *
            (static_cast<double>(m_points[i - 1].first) + static_cast<double>(m_points[i].first)) /
            2;
    }
    return mean;
}

} // namespace ns3
