/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SIZE_DISTRIBUTION_H
#define FLOW_SIZE_DISTRIBUTION_H

#include <cstdint>
#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief An empirical flow-size distribution: a cumulative distribution function given by points
 * (size in bytes, cumulative percent), linear between the points.
 *
 * The text format is the one of the traffic generators of congestion-control papers: one point
 * a line, "size_bytes cumulative_percent" separated by white space; blank lines and lines
 * starting with '#' are ignored. Sizes must not decrease, percents must not decrease, lie in
 * 0..100, and the last percent must be 100. Two points with the same size and rising percents
 * make an atom (a probability mass at that size); two points with the same percent and rising
 * sizes make a gap (no flow sizes in between). A first point with a percent p0 above 0 puts a
 * mass p0 / 100 at its size.
 *
 * Two distributions are built in (LoadBuiltIn): "websearch", the web-search workload of the
 * DCTCP paper (M. Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010), and "hadoop", the
 * Hadoop cluster of Facebook (A. Roy et al., "Inside the Social Network's (Datacenter) Network",
 * SIGCOMM 2015), with the points published with the HPCC paper's traffic generator.
 */
class FlowSizeDistribution
{
  public:
    /// A point of the CDF: (size in bytes, cumulative percent).
    typedef std::pair<uint64_t, double> Point;

    FlowSizeDistribution();

    /**
     * Load a distribution from a file. On failure the distribution is left as it was.
     * @param path the file.
     * @return "" or "path: line N: reason" ("path: reason" when no line is at fault).
     */
    std::string Load(const std::string& path);

    /**
     * Load a built-in distribution.
     * @param name "websearch" or "hadoop" (case does not matter).
     * @return "" or the problem (an unknown name).
     */
    std::string LoadBuiltIn(const std::string& name);

    /**
     * Read a distribution from a stream in the text format. On failure the distribution is left
     * as it was.
     * @param in the text.
     * @param source name used in the messages (a file name).
     * @return "" or "source: line N: reason" ("source: reason" when no line is at fault).
     */
    std::string Parse(std::istream& in, const std::string& source);

    /**
     * Set the points directly. On failure the distribution is left as it was.
     * @param points the points, in order.
     * @param source name used in the messages; point i counts as line i + 1.
     * @return "" or "source: line N: reason", as Parse.
     */
    std::string SetPoints(const std::vector<Point>& points, const std::string& source);

    /**
     * Resolve a name as a built-in distribution, or else as a file.
     * @param nameOrPath "websearch", "hadoop" or a path.
     * @return "" or the problem, as Load.
     */
    std::string LoadByName(const std::string& nameOrPath);

    /// @return the names of the built-in distributions.
    static std::vector<std::string> GetBuiltInNames();

    /// @return true once a distribution is loaded.
    bool IsLoaded() const;

    /// @return the points of the CDF.
    const std::vector<Point>& GetPoints() const;

    /**
     * Inverse of the CDF (the quantile function), linear between the points.
     *
     * With points (x_i, P_i) and p = 100 u: if p <= P_0 the result is x_0; otherwise, for the
     * first i with P_i >= p, it is x_{i-1} + (x_i - x_{i-1}) (p - P_{i-1}) / (P_i - P_{i-1}),
     * rounded to the nearest integer. A uniform u on [0, 1] thus gives sizes distributed by the
     * piecewise-linear CDF.
     * @param u a probability, clamped to [0, 1].
     * @return the size in bytes (may be 0 if the CDF starts at 0).
     */
    uint64_t Sample(double u) const;

    /**
     * Exact mean of the piecewise-linear CDF: a mass P_0 / 100 at x_0, and on each segment a
     * uniform density of mass (P_i - P_{i-1}) / 100, whose mean is (x_{i-1} + x_i) / 2:
     * mean = x_0 P_0 / 100 + sum_i (P_i - P_{i-1}) / 100 x (x_{i-1} + x_i) / 2.
     * (Sample() rounds to whole bytes, which moves the mean by at most half a byte.)
     * @return the mean in bytes, 0 if nothing is loaded.
     */
    double GetMean() const;

  private:
    std::vector<Point> m_points; //!< the CDF, percents in 0..100
};

} // namespace ns3

#endif /* FLOW_SIZE_DISTRIBUTION_H */
