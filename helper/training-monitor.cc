/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-monitor.h"

#include "general-format.h"
#include "llm-training-helper.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iostream>
#include <sstream>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingMonitor");

namespace
{

/**
 * @param t a time.
 * @return it in microseconds.
 */
double
Us(Time t)
{
    return static_cast<double>(t.GetPicoSeconds()) / 1e6;
}

/// The most characters Write writes for one number (an integer's 20 digits and sign fit).
constexpr size_t NUMBER_MAX_CHARS = GENERAL6_MAX_CHARS;

/// The longest row of flows.csv but for its job column: four integers, the path, five doubles,
/// their commas and the newline.
constexpr size_t FLOW_ROW_NUMBERS_BYTES =
    4 * (NUMBER_MAX_CHARS + 1) + 7 + 5 * (NUMBER_MAX_CHARS + 1) + 1;

/**
 * Write a number into a CSV row in memory as an ostream with its default flags writes it
 * (integers in decimal; doubles as printf's "%g", 6 significant digits, which WriteGeneral6
 * writes), without the stream's per-field locale machinery: the rows of flows.csv, one per
 * transfer, are the bulk of a training run's output.
 * @tparam T an arithmetic type.
 * @param p where to write (NUMBER_MAX_CHARS bytes).
 * @param x the number.
 * @return the end of what was written.
 */
template <typename T>
char*
Write(char* p, T x)
{
    if constexpr (std::is_floating_point_v<T>)
    {
        return WriteGeneral6(p, x);
    }
    else
    {
        return std::to_chars(p, p + NUMBER_MAX_CHARS, x).ptr;
    }
}

/**
 * Append a number to a CSV row as Write writes it.
 * @tparam T an arithmetic type.
 * @param row the row.
 * @param x the number.
 */
template <typename T>
void
Append(std::string& row, T x)
{
    char buffer[NUMBER_MAX_CHARS];
    row.append(buffer, static_cast<std::size_t>(Write(buffer, x) - buffer));
}

/**
 * Write numbers into a CSV row in memory, each preceded by a comma.
 * @param p where to write (NUMBER_MAX_CHARS + 1 bytes a number).
 * @param x the numbers.
 * @return the end of what was written.
 */
template <typename... T>
char*
WriteFields(char* p, T... x)
{
    ((*p++ = ',', p = Write(p, x)), ...);
    return p;
}

/**
 * Append numbers to a CSV row, each preceded by a comma.
 * @param row the row.
 * @param x the numbers.
 */
template <typename... T>
void
AppendFields(std::string& row, T... x)
{
    ((row += ',', Append(row, x)), ...);
}

/**
 * @param s a label.
 * @return it with commas and quotes replaced, safe in a CSV field.
 */
std::string
CsvSafe(std::string s)
{
    for (char& c : s)
    {
        if (c == ',' || c == '"' || c == '\n')
        {
            c = ';';
        }
    }
    return s;
}

} // namespace

/// Connects a job's traces to the monitor, with the job's index.
class TrainingMonitor::JobSink
{
  public:
    /**
     * @param monitor the monitor.
     * @param job the job's index.
     */
    JobSink(TrainingMonitor* monitor, uint32_t job)
        : m_monitor(monitor),
          m_job(job)
    {
    }

    /// @param record an iteration of a rank.
    void IterationDone(const IterationRecord& record)
    {
        m_monitor->IterationDone(m_job, record);
    }

    /// @param record a collective.
    void CollectiveDone(const CollectiveRecord& record)
    {
        m_monitor->CollectiveDone(m_job, record);
    }

    /// @param record a transfer.
    void TransferDone(const TransferRecord& record)
    {
        m_monitor->TransferDone(m_job, record);
    }

  private:
    TrainingMonitor* m_monitor; //!< the monitor
    uint32_t m_job;             //!< the job
};

TrainingMonitor::TrainingMonitor()
    : m_transfers(0),
      m_collectives(0),
      m_ranks(0),
      m_iterationsPlanned(0),
      m_ranksFinished(0),
      m_stopWhenDone(true),
      m_wallInterval(10)
{
}

TrainingMonitor::~TrainingMonitor()
{
    m_progress.Cancel();
    WriteFlowRows();
}

void
TrainingMonitor::WriteFlowRows()
{
    if (m_rowBytes == 0)
    {
        return;
    }
    m_flowsCsv.write(m_rows.get(), static_cast<std::streamsize>(m_rowBytes));
    m_rowBytes = 0;
}

std::string
TrainingMonitor::Start(const LlmTrainingHelper& job, const std::string& outDir)
{
    m_wallStart = std::chrono::steady_clock::now();
    m_lastLine = m_wallStart;
    m_iterationsCsv.open(outDir + "/iterations.csv");
    m_collectivesCsv.open(outDir + "/collectives.csv");
    m_flowsCsv.open(outDir + "/flows.csv");
    if (!m_iterationsCsv || !m_collectivesCsv || !m_flowsCsv)
    {
        return "cannot write the CSV files in " + outDir;
    }
    // With a jobs list, every row ends with its job's name.
    const bool jobList = job.HasJobList();
    const char* jobHeader = jobList ? ",job\n" : "\n";
    m_iterationsCsv << "rank,iteration,start_us,end_us,time_us,compute_us,communication_us,"
                       "exposed_us,bubble_us"
                    << jobHeader;
    m_collectivesCsv << "instance,label,kind,algorithm,ranks,bytes,inter_bytes,intra_bytes,"
                        "first_join_us,last_join_us,end_us,time_us,ideal_us,slowdown"
                     << jobHeader;
    m_flowsCsv << "instance,src_rank,dst_rank,bytes,path,start_us,end_us,fct_us,ideal_us,"
                  "slowdown"
               << jobHeader;
    m_ranks = static_cast<uint32_t>(job.GetApplications().size());
    const auto& jobs = job.GetJobs();
    m_iterations.assign(jobs.size(), {});
    m_jobColumn.clear();
    m_sinks.clear();
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        m_jobColumn.push_back(jobList ? "," + jobs[j].name : "");
        m_sinks.push_back(std::make_unique<JobSink>(this, j));
        JobSink* sink = m_sinks.back().get();
        for (const auto& app : jobs[j].apps)
        {
            app->TraceConnectWithoutContext("IterationDone",
                                            MakeCallback(&JobSink::IterationDone, sink));
            UintegerValue iterations;
            app->GetAttribute("Iterations", iterations);
            m_iterationsPlanned = static_cast<uint32_t>(iterations.Get());
        }
        jobs[j].runtime->TraceConnectWithoutContext("CollectiveDone",
                                                    MakeCallback(&JobSink::CollectiveDone, sink));
        jobs[j].runtime->TraceConnectWithoutContext("TransferDone",
                                                    MakeCallback(&JobSink::TransferDone, sink));
    }
    // Room for the mark, then a row at its longest: the numbers and the path, then a job's
    // name.
    size_t longestJob = 0;
    for (const std::string& column : m_jobColumn)
    {
        longestJob = std::max(longestJob, column.size());
    }
    m_rows = std::make_unique<char[]>(ROWS_BUFFER_BYTES + FLOW_ROW_NUMBERS_BYTES + longestJob);
    m_rowBytes = 0;
    return "";
}

void
TrainingMonitor::SetStopWhenDone(bool stop)
{
    m_stopWhenDone = stop;
}

void
TrainingMonitor::EnableProgress(double wallInterval, Time checkInterval)
{
    m_wallInterval = wallInterval;
    m_checkInterval = checkInterval;
    m_progress = Simulator::Schedule(checkInterval, &TrainingMonitor::Progress, this);
}

void
TrainingMonitor::Progress()
{
    auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - m_lastLine).count() >= m_wallInterval)
    {
        m_lastLine = now;
        uint64_t ranksDone = 0;
        for (const auto& iterations : m_iterations)
        {
            for (const auto& [i, it] : iterations)
            {
                ranksDone += it.ranks;
            }
        }
        std::cerr << "progress: simulated " << Simulator::Now().GetMicroSeconds() << " us, "
                  << ranksDone << "/" << static_cast<uint64_t>(m_ranks) * m_iterationsPlanned
                  << " rank-iterations, " << m_collectives << " collectives, " << m_transfers
                  << " transfers, " << Simulator::GetEventCount() << " events, "
                  << std::chrono::duration<double>(now - m_wallStart).count() << " s" << std::endl;
    }
    // Keep checking only while something else is scheduled: the check must not keep an
    // otherwise finished simulation alive.
    if (!Simulator::IsFinished())
    {
        m_progress = Simulator::Schedule(m_checkInterval, &TrainingMonitor::Progress, this);
    }
}

void
TrainingMonitor::Finish()
{
    m_progress.Cancel();
    m_iterationsCsv.flush();
    m_collectivesCsv.flush();
    WriteFlowRows();
    m_flowsCsv.flush();
}

void
TrainingMonitor::IterationDone(uint32_t job, const IterationRecord& r)
{
    m_iterationsCsv << r.rank << "," << r.iteration << "," << Us(r.start) << "," << Us(r.end) << ","
                    << Us(r.end - r.start) << "," << Us(r.compute) << "," << Us(r.communication)
                    << "," << Us(r.exposed) << "," << Us(r.bubble) << m_jobColumn[job] << "\n";
    if (m_stopWhenDone && r.iteration + 1 == m_iterationsPlanned && ++m_ranksFinished == m_ranks)
    {
        // Every rank has run every iteration: what is left (congestion-control timers of idle
        // queue pairs, samplers) would only run the clock on.
        Simulator::Stop();
    }
    JobIteration& it = m_iterations[job][r.iteration];
    it.start = it.ranks == 0 ? r.start : std::min(it.start, r.start);
    it.end = it.ranks == 0 ? r.end : std::max(it.end, r.end);
    ++it.ranks;
    it.compute += r.compute;
    it.communication += r.communication;
    it.exposed += r.exposed;
    it.bubble += r.bubble;
}

void
TrainingMonitor::CollectiveDone(uint32_t job, const CollectiveRecord& r)
{
    ++m_collectives;
    Time time = r.end - r.lastJoin;
    double slowdown = r.ideal.IsStrictlyPositive() ? time.GetSeconds() / r.ideal.GetSeconds() : 0;
    m_collectiveUs.push_back(Us(time));
    if (r.ideal.IsStrictlyPositive())
    {
        m_collectiveSlowdown.push_back(slowdown);
    }
    std::string row;
    Append(row, r.instance);
    row += ',';
    row += CsvSafe(r.label);
    row += ',';
    row += GetCollectiveKindName(r.kind);
    row += ',';
    row += TypeIdAlias::GetShortName(r.algorithm);
    AppendFields(row, r.groupSize, r.bytes, r.interBytes, r.intraBytes);
    AppendFields(row, Us(r.firstJoin), Us(r.lastJoin), Us(r.end), Us(time), Us(r.ideal), slowdown);
    row += m_jobColumn[job];
    row += '\n';
    m_collectivesCsv.write(row.data(), static_cast<std::streamsize>(row.size()));
}

void
TrainingMonitor::TransferDone(uint32_t job, const TransferRecord& r)
{
    ++m_transfers;
    Time fct = r.end - r.start;
    double slowdown = r.ideal.IsStrictlyPositive() ? fct.GetSeconds() / r.ideal.GetSeconds() : 0;
    if (!r.nvlink)
    {
        m_fctUs.push_back(Us(fct));
        m_slowdown.push_back(slowdown);
    }
    char* const row = m_rows.get() + m_rowBytes;
    char* p = Write(row, r.instance);
    p = WriteFields(p, r.srcRank, r.dstRank, r.bytes);
    if (r.nvlink)
    {
        std::memcpy(p, ",nvlink", 7);
        p += 7;
    }
    else
    {
        std::memcpy(p, ",rdma", 5);
        p += 5;
    }
    p = WriteFields(p, Us(r.start), Us(r.end), Us(fct), Us(r.ideal), slowdown);
    const std::string& jobColumn = m_jobColumn[job];
    std::memcpy(p, jobColumn.data(), jobColumn.size());
    p += jobColumn.size();
    *p++ = '\n';
    NS_ASSERT(static_cast<size_t>(p - row) <= FLOW_ROW_NUMBERS_BYTES + jobColumn.size());
    m_rowBytes += static_cast<size_t>(p - row);
    if (m_rowBytes >= ROWS_BUFFER_BYTES)
    {
        WriteFlowRows();
    }
}

const std::map<uint32_t, TrainingMonitor::JobIteration>&
TrainingMonitor::GetIterations() const
{
    return GetIterations(0);
}

const std::map<uint32_t, TrainingMonitor::JobIteration>&
TrainingMonitor::GetIterations(uint32_t job) const
{
    static const std::map<uint32_t, JobIteration> none;
    return job < m_iterations.size() ? m_iterations[job] : none;
}

uint32_t
TrainingMonitor::GetJobs() const
{
    return static_cast<uint32_t>(m_iterations.size());
}

const std::vector<double>&
TrainingMonitor::GetCollectiveTimesUs() const
{
    return m_collectiveUs;
}

const std::vector<double>&
TrainingMonitor::GetCollectiveSlowdowns() const
{
    return m_collectiveSlowdown;
}

const std::vector<double>&
TrainingMonitor::GetFctUs() const
{
    return m_fctUs;
}

const std::vector<double>&
TrainingMonitor::GetSlowdowns() const
{
    return m_slowdown;
}

uint64_t
TrainingMonitor::GetTransfers() const
{
    return m_transfers;
}

uint64_t
TrainingMonitor::GetCollectives() const
{
    return m_collectives;
}

std::string
TrainingMonitor::IterationsJson() const
{
    return Iterations().dump();
}

nlohmann::ordered_json
TrainingMonitor::Iterations() const
{
    return Iterations(0);
}

nlohmann::ordered_json
TrainingMonitor::Iterations(uint32_t job) const
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& [i, it] : GetIterations(job))
    {
        double n = it.ranks;
        list.push_back({{"iteration", i},
                        {"ranks", it.ranks},
                        {"time_us", Us(it.end - it.start)},
                        {"compute_us", Us(it.compute) / n},
                        {"communication_us", Us(it.communication) / n},
                        {"exposed_us", Us(it.exposed) / n},
                        {"bubble_us", Us(it.bubble) / n}});
    }
    return list;
}

} // namespace ns3
