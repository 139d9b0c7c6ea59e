/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-training-application.h"

#include "ns3/abort.h"
#include "ns3/collective-runtime.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LlmTrainingApplication");

NS_OBJECT_ENSURE_REGISTERED(LlmTrainingApplication);

namespace
{

/**
 * @param spans intervals.
 * @return the union of the intervals, sorted and disjoint.
 */
std::vector<std::pair<Time, Time>>
Merge(std::vector<std::pair<Time, Time>> spans)
{
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<Time, Time>> out;
    for (const auto& s : spans)
    {
        if (!out.empty() && s.first <= out.back().second)
        {
            out.back().second = std::max(out.back().second, s.second);
        }
        else
        {
            out.push_back(s);
        }
    }
    return out;
}

/**
 * @param spans disjoint sorted intervals.
 * @return their total length.
 */
Time
Measure(const std::vector<std::pair<Time, Time>>& spans)
{
    Time total;
    for (const auto& s : spans)
    {
        total += s.second - s.first;
    }
    return total;
}

/**
 * @param a disjoint sorted intervals.
 * @param b disjoint sorted intervals.
 * @return the measure of their intersection.
 */
Time
Overlap(const std::vector<std::pair<Time, Time>>& a, const std::vector<std::pair<Time, Time>>& b)
{
    Time total;
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() && j < b.size())
    {
        Time lo = std::max(a[i].first, b[j].first);
        Time hi = std::min(a[i].second, b[j].second);
        if (lo < hi)
        {
            total += hi - lo;
        }
        if (a[i].second < b[j].second)
        {
            ++i;
        }
        else
        {
            ++j;
        }
    }
    return total;
}

} // namespace

TypeId
LlmTrainingApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LlmTrainingApplication")
            .SetParent<Application>()
            .SetGroupName("LlmFabric")
            .AddConstructor<LlmTrainingApplication>()
            .AddAttribute("Rank",
                          "The global rank (GPU) this application runs.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&LlmTrainingApplication::m_rank),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Iterations",
                          "Training iterations to run.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&LlmTrainingApplication::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeSlowdown",
                          "Factor on the duration of this rank's compute ops while the "
                          "slowdown applies (a straggler GPU: thermal throttling, a slow HBM "
                          "stack, a noisy neighbour; 1: none).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&LlmTrainingApplication::m_slowdown),
                          MakeDoubleChecker<double>(0.01, 1000.0))
            .AddAttribute("SlowdownStart",
                          "The slowdown applies to compute ops that start at or after this "
                          "time.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LlmTrainingApplication::m_slowdownStart),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("SlowdownFirstIteration",
                          "The slowdown applies from this iteration (counted from 0).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&LlmTrainingApplication::m_slowdownFirst),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SlowdownIterations",
                          "The slowdown applies to this many iterations from "
                          "SlowdownFirstIteration (0: to the end).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&LlmTrainingApplication::m_slowdownCount),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("OpDone",
                            "An op of the schedule finished: rank, iteration, op id, start, end.",
                            MakeTraceSourceAccessor(&LlmTrainingApplication::m_opDone),
                            "ns3::LlmTrainingApplication::OpDoneTracedCallback")
            .AddTraceSource("IterationDone",
                            "An iteration finished on this rank.",
                            MakeTraceSourceAccessor(&LlmTrainingApplication::m_iterationDone),
                            "ns3::LlmTrainingApplication::IterationDoneTracedCallback");
    return tid;
}

LlmTrainingApplication::LlmTrainingApplication()
    : m_rank(0),
      m_iterations(1),
      m_iteration(0),
      m_running(false),
      m_opsLeft(0),
      m_nextCompute(0),
      m_computeBusy(false),
      m_slowdown(1.0),
      m_slowdownFirst(0),
      m_slowdownCount(0)
{
    NS_LOG_FUNCTION(this);
}

LlmTrainingApplication::~LlmTrainingApplication()
{
    NS_LOG_FUNCTION(this);
}

void
LlmTrainingApplication::DoDispose()
{
    m_runtime = nullptr;
    Application::DoDispose();
}

void
LlmTrainingApplication::SetSchedule(const IterationSchedule& schedule)
{
    NS_ABORT_MSG_IF(schedule.GetRank() != m_rank,
                    "LlmTrainingApplication: schedule of rank " << schedule.GetRank()
                                                                << " given to rank " << m_rank);
    m_ops = schedule.GetOps();
    m_dependents.assign(m_ops.size(), {});
    // A collective op's done-callback is made when the op first joins and kept until it
    // finishes (a bound callback is several allocations, and an op may run many collectives);
    // its group's counter is found below once (a map keyed by the members).
    m_collectiveDone.assign(m_ops.size(), Callback<void>());
    m_sequenceOf.assign(m_ops.size(), nullptr);
    m_computeOrder.clear();
    m_groupOps.clear();
    for (const auto& op : m_ops)
    {
        for (uint32_t d : op.dependsOn)
        {
            NS_ABORT_MSG_IF(d >= op.id,
                            "LlmTrainingApplication: op " << op.id << " depends on " << d);
            m_dependents[d].push_back(op.id);
        }
        if (op.type == ScheduleOp::COMPUTE)
        {
            m_computeOrder.push_back(op.id);
        }
        else
        {
            m_groupOps[op.members].push_back(op.id);
            // A map's entries stay where they are: the pointer holds as groups are added.
            m_sequenceOf[op.id] = &m_sequence[op.members];
        }
    }
    m_groupOf.assign(m_ops.size(), nullptr);
    for (const auto& [members, ids] : m_groupOps)
    {
        for (uint32_t id : ids)
        {
            m_groupOf[id] = &members;
        }
    }
}

void
LlmTrainingApplication::SetRuntime(Ptr<CollectiveRuntime> runtime)
{
    m_runtime = runtime;
}

uint32_t
LlmTrainingApplication::GetRank() const
{
    return m_rank;
}

uint32_t
LlmTrainingApplication::GetIterationsDone() const
{
    return static_cast<uint32_t>(m_records.size());
}

const std::vector<IterationRecord>&
LlmTrainingApplication::GetIterationRecords() const
{
    return m_records;
}

bool
LlmTrainingApplication::IsFinished() const
{
    return m_records.size() == m_iterations;
}

std::string
LlmTrainingApplication::DescribePending() const
{
    std::ostringstream os;
    os << "rank " << m_rank << " iteration " << m_iteration << ":";
    uint32_t shown = 0;
    for (const auto& op : m_ops)
    {
        if (op.id < m_started.size() && m_started[op.id] && !m_finished[op.id])
        {
            os << " running '" << op.name << "'";
            if (++shown == 4)
            {
                break;
            }
        }
    }
    if (shown == 0)
    {
        os << " nothing running";
    }
    return os.str();
}

void
LlmTrainingApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_runtime, "LlmTrainingApplication: no CollectiveRuntime");
    m_running = true;
    if (!m_ops.empty() && m_records.size() < m_iterations)
    {
        BeginIteration();
    }
}

void
LlmTrainingApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false; // ops in flight finish; no new iteration starts
}

void
LlmTrainingApplication::BeginIteration()
{
    size_t n = m_ops.size();
    m_pendingDeps.assign(n, 0);
    for (const auto& op : m_ops)
    {
        m_pendingDeps[op.id] = static_cast<uint32_t>(op.dependsOn.size());
    }
    m_started.assign(n, false);
    m_finished.assign(n, false);
    m_opStart.assign(n, Time(0));
    m_countLeft.assign(n, 0);
    m_opsLeft = static_cast<uint32_t>(n);
    m_nextCompute = 0;
    m_computeBusy = false;
    m_groupNext.clear();
    m_groupBusy.clear();
    for (const auto& [members, ids] : m_groupOps)
    {
        m_groupNext[&members] = 0;
        m_groupBusy[&members] = false;
    }
    m_iterationStart = Simulator::Now();
    m_computeSpans.clear();
    m_commSpans.clear();
    StartReady();
}

void
LlmTrainingApplication::StartReady()
{
    // Compute: the next one in order, if the stream is free and its dependencies are done.
    if (!m_computeBusy && m_nextCompute < m_computeOrder.size())
    {
        uint32_t id = m_computeOrder[m_nextCompute];
        if (m_pendingDeps[id] == 0)
        {
            ++m_nextCompute;
            m_computeBusy = true;
            StartOp(id);
        }
    }
    // Collectives: the next op of every idle group whose dependencies are done.
    for (auto& [members, ids] : m_groupOps)
    {
        const std::vector<uint32_t>* group = &members;
        if (m_groupBusy[group] || m_groupNext[group] >= ids.size())
        {
            continue;
        }
        uint32_t id = ids[m_groupNext[group]];
        if (m_pendingDeps[id] == 0)
        {
            ++m_groupNext[group];
            m_groupBusy[group] = true;
            StartOp(id);
        }
    }
}

Time
LlmTrainingApplication::GetComputeDuration(Time duration) const
{
    bool applies = m_slowdown != 1.0 && Simulator::Now() >= m_slowdownStart &&
                   m_iteration >= m_slowdownFirst &&
                   (m_slowdownCount == 0 || m_iteration - m_slowdownFirst < m_slowdownCount);
    if (!applies)
    {
        return duration;
    }
    // Integer time steps: round the product to the simulator's resolution.
    return TimeStep(static_cast<uint64_t>(
        std::llround(static_cast<double>(duration.GetTimeStep()) * m_slowdown)));
}

void
LlmTrainingApplication::StartOp(uint32_t id)
{
    const ScheduleOp& op = m_ops[id];
    NS_LOG_FUNCTION(this << m_rank << op.name);
    m_started[id] = true;
    m_opStart[id] = Simulator::Now();
    if (op.type == ScheduleOp::COMPUTE)
    {
        Simulator::Schedule(GetComputeDuration(op.duration),
                            &LlmTrainingApplication::FinishOp,
                            this,
                            id);
        return;
    }
    m_countLeft[id] = op.count;
    if (op.count == 0)
    {
        Simulator::ScheduleNow(&LlmTrainingApplication::FinishOp, this, id);
        return;
    }
    JoinNext(id);
}

void
LlmTrainingApplication::JoinNext(uint32_t id)
{
    const ScheduleOp& op = m_ops[id];
    uint64_t sequence = (*m_sequenceOf[id])++;
    Callback<void>& done = m_collectiveDone[id];
    if (done.IsNull())
    {
        done = MakeCallback(&LlmTrainingApplication::CollectiveDone, this).Bind(id);
    }
    std::string problem =
        m_runtime->Join(m_rank,
                        op.members,
                        sequence,
                        {op.kind, op.messageBytes, op.name, static_cast<uint32_t>(op.strategy)},
                        done);
    NS_ABORT_MSG_IF(!problem.empty(),
                    "LlmTrainingApplication: rank " << m_rank << ", '" << op.name
                                                    << "': " << problem);
}

void
LlmTrainingApplication::CollectiveDone(uint32_t id)
{
    if (--m_countLeft[id] > 0)
    {
        // The next collective of the op starts from a fresh event, not from inside the
        // runtime's completion of the previous one.
        Simulator::ScheduleNow(&LlmTrainingApplication::JoinNext, this, id);
        return;
    }
    Simulator::ScheduleNow(&LlmTrainingApplication::FinishOp, this, id);
}

void
LlmTrainingApplication::FinishOp(uint32_t id)
{
    const ScheduleOp& op = m_ops[id];
    m_finished[id] = true;
    Time now = Simulator::Now();
    m_opDone(m_rank, m_iteration, id, m_opStart[id], now);
    if (op.type == ScheduleOp::COMPUTE)
    {
        m_computeBusy = false;
        m_computeSpans.emplace_back(m_opStart[id], now);
    }
    else
    {
        m_collectiveDone[id] = Callback<void>(); // its collectives are done: no copy is left
        m_groupBusy[m_groupOf[id]] = false;
        if (!(op.strategy == TrafficStrategy::PP && op.kind == CollectiveKind::SEND_RECV))
        {
            m_commSpans.emplace_back(m_opStart[id], now);
        }
    }
    for (uint32_t d : m_dependents[id])
    {
        --m_pendingDeps[d];
    }
    if (--m_opsLeft == 0)
    {
        EndIteration();
        return;
    }
    StartReady();
}

void
LlmTrainingApplication::EndIteration()
{
    IterationRecord record;
    record.rank = m_rank;
    record.iteration = m_iteration;
    record.start = m_iterationStart;
    record.end = Simulator::Now();
    auto compute = Merge(m_computeSpans);
    auto comm = Merge(m_commSpans);
    record.compute = Measure(compute);
    record.communication = Measure(comm);
    record.exposed = record.communication - Overlap(compute, comm);
    record.bubble = record.end - record.start - record.compute - record.exposed;
    m_records.push_back(record);
    m_iterationDone(record);
    ++m_iteration;
    if (m_running && m_records.size() < m_iterations)
    {
        BeginIteration();
    }
}

} // namespace ns3
