/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_MONITOR_H
#define TRAINING_MONITOR_H

#include "ns3/collective-runtime.h"
#include "ns3/event-id.h"
#include "ns3/llm-training-application.h"
#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class LlmTrainingHelper;

/**
 * @ingroup llm-fabric
 * @brief Streams the measurements of a training run to CSV files as the run goes, keeps what the
 * summary needs, and prints a progress line on long runs.
 *
 * Files (in the output folder):
 * - iterations.csv: rank,iteration,start_us,end_us,time_us,compute_us,communication_us,
 *   exposed_us,bubble_us (one row per rank and iteration, see IterationRecord);
 * - collectives.csv: instance,label,kind,algorithm,ranks,bytes,inter_bytes,intra_bytes,
 *   first_join_us,last_join_us,end_us,time_us,ideal_us,slowdown, where time runs from the last
 *   member's join to the end, ideal from the last join to the earliest end the members' join
 *   times allow (CollectiveRuntime::EarliestEnd, a lower bound), and slowdown is time over
 *   ideal (at least 1);
 * - flows.csv: instance,src_rank,dst_rank,bytes,path (rdma or nvlink),start_us,end_us,fct_us,
 *   ideal_us,slowdown (one row per point-to-point transfer).
 * Rows are written when their event happens; the files are flushed by Finish. A job built from
 * a scenario with a jobs list (LlmTrainingHelper::HasJobList) adds a last column, job (the job's
 * name), to the three files; ranks and instances are then the job's own.
 *
 * Job-level iteration i: from the earliest start to the latest end of iteration i over the
 * ranks; its compute, communication, exposed and bubble are the means over the ranks. With
 * several jobs, each job has its own (GetIterations(job)).
 */
class TrainingMonitor
{
  public:
    /// One iteration of the whole job.
    struct JobIteration
    {
        uint32_t ranks{0};  //!< ranks that finished it
        Time start;         //!< earliest start
        Time end;           //!< latest end
        Time compute;       //!< sum over ranks
        Time communication; //!< sum over ranks
        Time exposed;       //!< sum over ranks
        Time bubble;        //!< sum over ranks
    };

    TrainingMonitor();
    ~TrainingMonitor();

    TrainingMonitor(const TrainingMonitor&) = delete;
    TrainingMonitor& operator=(const TrainingMonitor&) = delete;

    /**
     * Open the files and connect to the job's traces.
     * @param job the built job.
     * @param outDir the folder (must exist).
     * @return "" or the problem (a file that cannot be written).
     */
    std::string Start(const LlmTrainingHelper& job, const std::string& outDir);

    /**
     * Print a progress line to stderr at most every wallInterval of wall-clock time (checked
     * every checkInterval of simulated time).
     * @param wallInterval wall-clock seconds between lines.
     * @param checkInterval simulated time between checks.
     */
    void EnableProgress(double wallInterval, Time checkInterval);

    /**
     * @param stop true (the default): stop the simulation when every rank has finished every
     * iteration.
     */
    void SetStopWhenDone(bool stop);

    /// Stop the progress checks and flush the files.
    void Finish();

    /// @return the job-level iterations (by iteration) of the first job.
    const std::map<uint32_t, JobIteration>& GetIterations() const;
    /**
     * @param job a job (LlmTrainingHelper::GetJobs order).
     * @return its job-level iterations (by iteration).
     */
    const std::map<uint32_t, JobIteration>& GetIterations(uint32_t job) const;
    /// @return the number of jobs monitored.
    uint32_t GetJobs() const;
    /// @return every collective's time (microseconds).
    const std::vector<double>& GetCollectiveTimesUs() const;
    /// @return every collective's slowdown.
    const std::vector<double>& GetCollectiveSlowdowns() const;
    /// @return every RDMA transfer's FCT (microseconds).
    const std::vector<double>& GetFctUs() const;
    /// @return every RDMA transfer's slowdown.
    const std::vector<double>& GetSlowdowns() const;
    /// @return transfers finished (RDMA and NVLink).
    uint64_t GetTransfers() const;
    /// @return collectives finished.
    uint64_t GetCollectives() const;

    /**
     * @return the job-level iterations as a JSON array of {iteration, time_us, compute_us,
     * communication_us, exposed_us, bubble_us}.
     */
    std::string IterationsJson() const;

    /// @return the iterations as a JSON array (see IterationsJson), of the first job.
    nlohmann::ordered_json Iterations() const;

    /**
     * @param job a job.
     * @return its iterations as a JSON array (see IterationsJson).
     */
    nlohmann::ordered_json Iterations(uint32_t job) const;

  private:
    /// Forwards a job's traces to the monitor with the job's index (defined in the .cc).
    class JobSink;

    /// Write the rows of flows.csv held in m_rows.
    void WriteFlowRows();

    /**
     * @param job the job.
     * @param record an iteration of a rank.
     */
    void IterationDone(uint32_t job, const IterationRecord& record);
    /**
     * @param job the job.
     * @param record a collective.
     */
    void CollectiveDone(uint32_t job, const CollectiveRecord& record);
    /**
     * @param job the job.
     * @param record a transfer.
     */
    void TransferDone(uint32_t job, const TransferRecord& record);
    /// Check the wall clock and maybe print progress.
    void Progress();

    std::ofstream m_iterationsCsv;                              //!< iterations.csv
    std::ofstream m_collectivesCsv;                             //!< collectives.csv
    std::ofstream m_flowsCsv;                                   //!< flows.csv
    std::vector<std::map<uint32_t, JobIteration>> m_iterations; //!< by job, by iteration
    std::vector<std::string> m_jobColumn;                       //!< by job: ",name" or ""
    /// Rows of flows.csv not written yet: written by the MiB and at Finish. A transfer's row is
    /// formatted into this memory field by field, with no stream or string call per field; it
    /// has room for ROWS_BUFFER_BYTES and a longest row more (Start sizes it).
    std::unique_ptr<char[]> m_rows;
    size_t m_rowBytes{0};                                //!< the bytes m_rows holds
    static constexpr size_t ROWS_BUFFER_BYTES = 1 << 20; //!< when m_rows is written
    std::vector<std::unique_ptr<JobSink>> m_sinks;       //!< by job
    std::vector<double> m_collectiveUs;                  //!< collective times
    std::vector<double> m_collectiveSlowdown;            //!< collective slowdowns
    std::vector<double> m_fctUs;                         //!< RDMA FCTs
    std::vector<double> m_slowdown;                      //!< RDMA slowdowns
    uint64_t m_transfers;                                //!< transfers
    uint64_t m_collectives;                              //!< collectives
    uint32_t m_ranks;                                    //!< ranks of the job
    uint32_t m_iterationsPlanned;                        //!< iterations per rank
    uint32_t m_ranksFinished;                            //!< ranks done with every iteration
    bool m_stopWhenDone;                                 //!< stop the simulation then
    double m_wallInterval;                               //!< progress interval, wall seconds
    Time m_checkInterval;                                //!< progress check, simulated
    EventId m_progress;                                  //!< next check
    std::chrono::steady_clock::time_point m_wallStart;   //!< when Start ran
    std::chrono::steady_clock::time_point m_lastLine;    //!< last progress line
};

} // namespace ns3

#endif /* TRAINING_MONITOR_H */
