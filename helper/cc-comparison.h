/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CC_COMPARISON_H
#define CC_COMPARISON_H

#include "roce-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The results of running the same traffic under several congestion controls, and their
 * outputs: a CSV table by flow-size bucket, every flow's CSV, and a gnuplot script of the FCT
 * slowdown by flow size with one line per algorithm (llm-fabric-cc-compare).
 *
 * A run is one traffic set under one congestion control (RunResult: its flows and the
 * fabric's measures). Flows are put in buckets by size: bucket i holds sizes in
 * [edge(i-1), edge(i)), the first from 0, the last without an upper bound. The default edges
 * are the decades 1 KB, 10 KB, 100 KB, 1 MB and 10 MB (KB = 1000 bytes), six buckets that
 * split both the WebSearch and the FB_Hadoop distributions (60 % of Hadoop's flows are below
 * 1 KB, 85 % of WebSearch's above 10 KB). The size buckets hold the background flows; incast
 * flows are a bucket of their own ("incast"), and "all" holds every flow.
 *
 * Percentiles are by nearest rank over the finished flows of a bucket: the value of rank
 * ceil(q x N) in increasing order (counted from 1). The slowdown of a flow is its FCT over
 * its ideal FCT (FlowResult).
 *
 * The class also parses the program's lists (traffic sets, congestion controls) and gives the
 * idle paths of a leaf-spine, from which the ideal FCTs and the base RTT come.
 */
class CcComparison
{
  public:
    /// A traffic set: Poisson flows of a size distribution at a load, with or without incasts.
    struct TrafficSet
    {
        std::string name;   //!< as written: "websearch30", "hadoop50+incast"
        std::string cdf;    //!< a built-in FlowSizeDistribution: "websearch", "hadoop"
        double load{0};     //!< the background load, a fraction of each host's rate
        bool incast{false}; //!< incasts on top (RdmaFlowGenerator::AddPoissonIncasts)
    };

    /// One flow of a run.
    struct FlowResult
    {
        uint32_t source{0};      //!< sending host
        uint32_t destination{0}; //!< receiving host
        uint64_t bytes{0};       //!< size
        bool incast{false};      //!< part of an incast
        bool done{false};        //!< acknowledged before the run ended
        double startUs{0};       //!< when it was posted, us
        double fctUs{0};         //!< completion time, us (if done)
        double idealUs{0};       //!< its FCT alone on its idle path, us
    };

    /// One traffic set under one congestion control.
    struct RunResult
    {
        std::string traffic;           //!< the traffic set's name
        std::string cc;                //!< the congestion control, as named
        std::vector<FlowResult> flows; //!< every flow
        uint32_t queueP50Bytes{0};     //!< median of the queue samples
        uint32_t queueP99Bytes{0};     //!< 99th percentile of the queue samples
        uint32_t queueMaxBytes{0};     //!< largest queue
        uint64_t pfcPauses{0};         //!< PFC pause frames sent
        double utilization{0};         //!< load of the measured links during the arrivals
        double wallS{0};               //!< wall-clock seconds of the run
    };

    /// The columns of the bucket table, in order, comma-separated.
    static const char* const CSV_HEADER;
    /// The columns of the flow table, in order, comma-separated.
    static const char* const FLOWS_HEADER;

    /// Create a comparison with the default bucket edges.
    CcComparison();

    /**
     * Use other bucket edges.
     * @param edges the upper edges of all buckets but the last, increasing, the first above 0.
     * @return "" or the problem (nothing changes then).
     */
    std::string SetBucketEdges(const std::vector<uint64_t>& edges);

    /// @return the bucket edges.
    const std::vector<uint64_t>& GetBucketEdges() const;

    /// @return the number of size buckets (edges + 1).
    uint32_t GetBucketCount() const;

    /**
     * @param bytes a flow size.
     * @return its size bucket.
     */
    uint32_t GetBucket(uint64_t bytes) const;

    /**
     * @param bucket a size bucket.
     * @return its name, e.g. "<1K", "1K-10K", ">=10M" (K = 1000, M = 10^6, G = 10^9).
     */
    std::string GetBucketName(uint32_t bucket) const;

    /**
     * Add a run (in the order the table and the plot show them).
     * @param run the run.
     */
    void AddRun(RunResult run);

    /// @return the runs added.
    const std::vector<RunResult>& GetRuns() const;

    /**
     * @param values some values.
     * @param q a fraction in [0, 1].
     * @return the nearest-rank percentile (see the class description); NaN without values.
     */
    static double Percentile(std::vector<double> values, double q);

    /**
     * Write the bucket table: for each run (in order), one row per size bucket, then "all",
     * then "incast" if the run has incast flows; columns CSV_HEADER: traffic, cc, bucket,
     * bucket_index (empty for all and incast), min_bytes and max_bytes (the bucket's
     * [min, max); empty where there is no bound or no size bucket), flows, flows_done,
     * slowdown_p50, slowdown_p95, slowdown_p99 (empty without a finished flow), and the run's
     * queue_p50_bytes, queue_p99_bytes, queue_max_bytes, pfc_pauses and utilization, the same
     * on every row of the run.
     * @param path the file (created or truncated).
     * @return "" or "path: reason".
     */
    std::string WriteCsv(const std::string& path) const;

    /**
     * Write every flow of every run: columns FLOWS_HEADER: traffic, cc, flow (its index in the
     * run), source, destination, bytes, incast (0 or 1), start_us, fct_us, ideal_us, slowdown
     * (the last three empty for a flow that did not finish).
     * @param path the file (created or truncated).
     * @return "" or "path: reason".
     */
    std::string WriteFlowsCsv(const std::string& path) const;

    /**
     * Write a gnuplot script that draws the slowdown by flow-size bucket from the bucket table:
     * one row of panels per traffic set (in the order of the runs), one panel per percentile
     * (p50, p95, p99), one line per congestion control, slowdown on a log scale, into a PNG.
     * The script names the CSV and the PNG by the names given, relative to the folder it is
     * run from (FigureScript::RunGnuplot runs it from its own folder).
     * @param path the script (created or truncated).
     * @param csvName the bucket table's file name.
     * @param pngName the picture's file name.
     * @return "" or "path: reason".
     */
    std::string WriteGnuplotScript(const std::string& path,
                                   const std::string& csvName,
                                   const std::string& pngName) const;

    /**
     * Parse a list of traffic sets: comma-separated names "<cdf><percent>" (a built-in
     * distribution and the load in percent, 1 to 100: "websearch30") or the same followed by
     * "+incast" ("websearch30+incast"). Each name may appear once.
     * @param list the list.
     * @param[out] sets the sets, in order (unchanged on error).
     * @return "" or the problem with the first bad name.
     */
    static std::string ParseTrafficSets(const std::string& list, std::vector<TrafficSet>& sets);

    /**
     * @return the default congestion controls: every registered alias of a subclass of
     * RdmaCongestionOps (TypeIdAlias::GetAliases, sorted) but "none" and "fixed", one alias per
     * class (the first).
     */
    static std::vector<std::string> GetDefaultCongestionControls();

    /**
     * Parse a list of congestion controls: comma-separated aliases or TypeId names
     * (RdmaHelper::LookupCongestionControl); each class may appear once.
     * @param list the list.
     * @param[out] ccs the names as written and their TypeIds, in order (unchanged on error).
     * @return "" or the problem with the first bad name.
     */
    static std::string ParseCongestionControls(const std::string& list,
                                               std::vector<std::pair<std::string, TypeId>>& ccs);

    /**
     * The fabric of the comparison unless told otherwise (llm-fabric-cc-compare's defaults): 4
     * leaves of 8 hosts and 2 spines, host links 100 Gb/s, leaf-spine links 400 Gb/s (800 Gb/s
     * down and 800 Gb/s up per leaf: no oversubscription), every link 1 us.
     * @return the leaf-spine.
     */
    static RoceTopologyHelper::LeafSpineConfig GetDefaultLeafSpine();

    /**
     * The rates of the hops between two hosts of a leaf-spine on the shortest path: host and
     * host under one leaf; host, fabric, fabric, host across leaves.
     * @param shape the leaf-spine.
     * @param source a host.
     * @param destination another host.
     * @return the rates of the hops, from the source.
     */
    static std::vector<DataRate> LeafSpinePath(const RoceTopologyHelper::LeafSpineConfig& shape,
                                               uint32_t source,
                                               uint32_t destination);

    /**
     * The base round-trip time of a leaf-spine: FlowStatistics::IdealFctNs of one full packet
     * (mtu bytes) on the longest path (across leaves if there are two or more, else under one
     * leaf), with the host links' delay: the time from the packet's first bit leaving the
     * sender to its ACK's last bit arriving back.
     * @param shape the leaf-spine (hostDelay is used for every link).
     * @param mtu the RDMA MTU.
     * @return the base RTT.
     */
    static Time LeafSpineBaseRtt(const RoceTopologyHelper::LeafSpineConfig& shape, uint32_t mtu);

  private:
    /**
     * Append the table rows of one bucket of one run.
     * @param out the text.
     * @param run the run.
     * @param name the bucket's name.
     * @param index the bucket's index, or -1 for all and incast.
     * @param flows the bucket's flows.
     */
    void WriteBucketRow(std::ostream& out,
                        const RunResult& run,
                        const std::string& name,
                        int index,
                        const std::vector<const FlowResult*>& flows) const;

    std::vector<uint64_t> m_edges; //!< bucket edges, bytes
    std::vector<RunResult> m_runs; //!< the runs
};

} // namespace ns3

#endif /* CC_COMPARISON_H */
