/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nvlink-domain.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NvlinkDomain");

NS_OBJECT_ENSURE_REGISTERED(NvlinkDomain);

/**
 * The serialized transfers of a domain on their way, in the order their arrivals were
 * scheduled, and the event of those arrivals: scheduled once per transfer (the simulator holds
 * a reference per scheduling), it delivers the transfer due now. Arrivals come in the order
 * they were scheduled (a constant Latency after serialization ends, which is in time order);
 * one whose arrival is later than a transfer scheduled after it (the Latency lowered meanwhile)
 * waits in its place while that one is found.
 */
class NvlinkDomain::Arrivals : public EventImpl
{
  public:
    /// @param domain the domain the transfers arrive in.
    explicit Arrivals(NvlinkDomain* domain)
        : m_domain(domain)
    {
    }

    /**
     * Add a transfer; the caller schedules this event at its arrival.
     * @param t the transfer.
     * @param tick its arrival, in time steps.
     */
    void Push(const Transfer& t, int64_t tick)
    {
        m_waiting.emplace_back(tick, t);
    }

    /// @return transfers waiting.
    std::size_t Size() const
    {
        return m_waiting.size();
    }

    /// Drop the transfers and the domain (disposed of: events still pending do nothing).
    void Clear()
    {
        m_waiting.clear();
        m_domain = nullptr;
    }

  private:
    void Notify() override
    {
        if (m_domain == nullptr || m_waiting.empty())
        {
            return;
        }
        const int64_t now = Simulator::Now().GetTimeStep();
        auto due = m_waiting.begin();
        while (due != m_waiting.end() && due->first != now)
        {
            ++due; // only when the Latency was lowered with transfers on the way
        }
        NS_ASSERT_MSG(due != m_waiting.end(), "NvlinkDomain: no transfer due now");
        if (due == m_waiting.end())
        {
            return;
        }
        const Transfer t = due->second;
        m_waiting.erase(due);
        m_domain->Arrive(t);
    }

    std::deque<std::pair<int64_t, Transfer>> m_waiting; //!< (arrival tick, transfer)
    NvlinkDomain* m_domain;                             //!< the domain, until it is disposed of
};

namespace
{

/**
 * Ticks (units of the simulator's resolution) per second, as a double.
 * @return 1e9 at the default nanosecond resolution.
 */
double
TicksPerSecond()
{
    return static_cast<double>(Seconds(1).GetTimeStep());
}

/**
 * The first whole tick at or after a fluid offset, treating an offset within
 * FINISH_TOLERANCE_TICKS above a whole tick as that tick.
 * @param offset a non-negative offset in ticks.
 * @return the rounded offset in whole ticks.
 */
int64_t
CeilTicks(double offset)
{
    return static_cast<int64_t>(std::ceil(offset - NvlinkDomain::FINISH_TOLERANCE_TICKS));
}

} // namespace

TypeId
NvlinkDomain::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::NvlinkDomain")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<NvlinkDomain>()
            .AddAttribute("Gpus",
                          "Number of GPUs of the domain (one server), numbered from 0. Change it "
                          "only while no transfer is pending.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&NvlinkDomain::SetGpus, &NvlinkDomain::GetGpus),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "Bandwidth",
                "NVLink capacity of each GPU, per direction: its egress and its ingress "
                "port each carry this much. The default is an H100's NVLink4, 18 links "
                "x 25 GB/s per direction = 450 GB/s. Change it only while no transfer "
                "is pending.",
                DataRateValue(DataRate("3600Gbps")),
                MakeDataRateAccessor(&NvlinkDomain::SetBandwidth, &NvlinkDomain::GetBandwidth),
                MakeDataRateChecker())
            .AddAttribute("Latency",
                          "Time from the end of a transfer's serialization (its last bit leaves "
                          "the source at the fluid rate) to the arrival of its last byte at the "
                          "destination.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&NvlinkDomain::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TransferStart",
                            "A transfer started (Send).",
                            MakeTraceSourceAccessor(&NvlinkDomain::m_startTrace),
                            "ns3::NvlinkDomain::TransferStartTracedCallback")
            .AddTraceSource("TransferEnd",
                            "The last byte of a transfer arrived at its destination.",
                            MakeTraceSourceAccessor(&NvlinkDomain::m_endTrace),
                            "ns3::NvlinkDomain::TransferEndTracedCallback");
    return tid;
}

NvlinkDomain::NvlinkDomain()
    : m_gpus(8),
      m_bandwidth(DataRate("3600Gbps")),
      m_latency(MicroSeconds(1)),
      m_syncTick(0),
      m_wakeupTick(0),
      m_wakeupPending(false),
      m_nextId(1),
      m_started(0),
      m_completed(0),
      m_bytesSent(0),
      m_bytesDelivered(0),
      m_capacityPerTick(-1)
{
    NS_LOG_FUNCTION(this);
}

NvlinkDomain::~NvlinkDomain()
{
    NS_LOG_FUNCTION(this);
}

void
NvlinkDomain::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // Cancel, not Remove: it is safe even if the simulator was destroyed meanwhile.
    m_wakeup.Cancel();
    m_wakeupPending = false;
    m_wakeupEvent = nullptr;
    if (m_arrivals)
    {
        m_arrivals->Clear(); // their pending events now do nothing
        m_arrivals = nullptr;
    }
    m_active.clear();
    Object::DoDispose();
}

uint32_t
NvlinkDomain::GetGpus() const
{
    return m_gpus;
}

void
NvlinkDomain::SetGpus(uint32_t gpus)
{
    NS_LOG_FUNCTION(this << gpus);
    NS_ABORT_MSG_IF(gpus == 0, "NvlinkDomain: Gpus 0: a domain has at least 1 GPU");
    NS_ABORT_MSG_IF(GetPendingTransfers() != 0,
                    "NvlinkDomain: Gpus set to " << gpus << " while " << GetPendingTransfers()
                                                 << " transfers are pending");
    m_gpus = gpus;
}

DataRate
NvlinkDomain::GetBandwidth() const
{
    return m_bandwidth;
}

Time
NvlinkDomain::GetLatency() const
{
    return m_latency;
}

void
NvlinkDomain::SetBandwidth(DataRate bandwidth)
{
    NS_LOG_FUNCTION(this << bandwidth);
    NS_ABORT_MSG_IF(bandwidth.GetBitRate() == 0,
                    "NvlinkDomain: Bandwidth 0 bit/s: a port needs a positive capacity");
    NS_ABORT_MSG_IF(GetPendingTransfers() != 0,
                    "NvlinkDomain: Bandwidth set to " << bandwidth << " while "
                                                      << GetPendingTransfers()
                                                      << " transfers are pending");
    m_bandwidth = bandwidth;
    m_capacityPerTick = -1; // ComputeRates converts it again
}

std::string
NvlinkDomain::CheckSend(uint32_t src, uint32_t dst, uint64_t bytes) const
{
    if (src < m_gpus && dst < m_gpus && src != dst && bytes != 0)
    {
        return ""; // every Send asks: no stream is made for a valid transfer
    }
    std::ostringstream problem;
    if (src >= m_gpus)
    {
        problem << "source GPU " << src << " out of range: the domain has " << m_gpus
                << " GPUs (0.." << m_gpus - 1 << ")";
    }
    else if (dst >= m_gpus)
    {
        problem << "destination GPU " << dst << " out of range: the domain has " << m_gpus
                << " GPUs (0.." << m_gpus - 1 << ")";
    }
    else if (src == dst)
    {
        problem << "source GPU " << src << " equals destination GPU " << dst
                << ": a transfer goes to another GPU";
    }
    else if (bytes == 0)
    {
        problem << "bytes 0: a transfer carries at least 1 byte";
    }
    return problem.str();
}

uint64_t
NvlinkDomain::Send(uint32_t src, uint32_t dst, uint64_t bytes, Callback<void, uint64_t> arrived)
{
    NS_LOG_FUNCTION(this << src << dst << bytes);
    std::string problem = CheckSend(src, dst, bytes);
    NS_ABORT_MSG_IF(!problem.empty(), "NvlinkDomain::Send: " << problem);

    Advance();
    Transfer transfer;
    transfer.id = m_nextId++;
    transfer.src = src;
    transfer.dst = dst;
    transfer.bytes = bytes;
    transfer.remainingBits = 8.0 * static_cast<double>(bytes);
    transfer.rate = 0;
    transfer.start = Simulator::Now();
    transfer.arrived = arrived;
    m_active.push_back(transfer);
    ++m_started;
    m_bytesSent += bytes;
    ComputeRates();
    ScheduleWakeup();
    m_startTrace(transfer.id, src, dst, bytes);
    return transfer.id;
}

uint32_t
NvlinkDomain::GetActiveTransfers() const
{
    return static_cast<uint32_t>(m_active.size());
}

uint32_t
NvlinkDomain::GetPendingTransfers() const
{
    return static_cast<uint32_t>(m_active.size() + (m_arrivals ? m_arrivals->Size() : 0));
}

uint64_t
NvlinkDomain::GetTransfersCompleted() const
{
    return m_completed;
}

uint64_t
NvlinkDomain::GetTransfersStarted() const
{
    return m_started;
}

uint64_t
NvlinkDomain::GetBytesDelivered() const
{
    return m_bytesDelivered;
}

uint64_t
NvlinkDomain::GetBytesSent() const
{
    return m_bytesSent;
}

double
NvlinkDomain::GetRate(uint64_t id) const
{
    for (const Transfer& t : m_active)
    {
        if (t.id == id)
        {
            return t.rate * TicksPerSecond();
        }
    }
    return 0;
}

double
NvlinkDomain::NextFinish(std::size_t& index) const
{
    double best = std::numeric_limits<double>::infinity();
    index = 0;
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        double left = m_active[i].remainingBits / m_active[i].rate;
        // Ties go to the smaller id, so that the result does not depend on the vector's order.
        if (left < best || (left == best && m_active[i].id < m_active[index].id))
        {
            best = left;
            index = i;
        }
    }
    return best;
}

void
NvlinkDomain::Advance()
{
    int64_t now = Simulator::Now().GetTimeStep();
    NS_LOG_FUNCTION(this << now);
    auto elapsed = static_cast<double>(now - m_syncTick);
    double done = 0; // fluid time processed, ticks after m_syncTick
    while (!m_active.empty())
    {
        std::size_t first = 0;
        double step = NextFinish(first);
        if (done + step > elapsed + FINISH_TOLERANCE_TICKS)
        {
            break;
        }
        for (Transfer& t : m_active)
        {
            t.remainingBits -= t.rate * step;
        }
        done += step;
        FinishSerialization(first, done);
        ComputeRates();
    }
    if (elapsed > done)
    {
        for (Transfer& t : m_active)
        {
            t.remainingBits -= t.rate * (elapsed - done);
        }
    }
    m_syncTick = now;
}

void
NvlinkDomain::FinishSerialization(std::size_t first, double offset)
{
    NS_LOG_FUNCTION(this << first << offset);
    m_active[first].remainingBits = 0;
    std::vector<Transfer>& finished = m_finished; // left empty by the last call
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        Transfer& t = m_active[i];
        if (t.remainingBits <= t.rate * FINISH_TOLERANCE_TICKS)
        {
            finished.push_back(t);
        }
        else
        {
            if (kept != i)
            {
                m_active[kept] = t;
            }
            ++kept;
        }
    }
    m_active.resize(kept);
    std::sort(finished.begin(), finished.end(), [](const Transfer& a, const Transfer& b) {
        return a.id < b.id;
    });

    // The last bit leaves at the exact fluid time m_syncTick + offset; the arrival is delivered
    // at the first tick at or after it, plus Latency.
    int64_t now = Simulator::Now().GetTimeStep();
    int64_t arrivalTick = m_syncTick + CeilTicks(offset) + m_latency.GetTimeStep();
    const int64_t delay = std::max<int64_t>(0, arrivalTick - now);
    if (!m_arrivals)
    {
        m_arrivals = Create<Arrivals>(this);
    }
    for (Transfer& t : finished)
    {
        NS_LOG_LOGIC("transfer " << t.id << " serialized at tick " << m_syncTick << " + " << offset
                                 << ", arrives at tick " << arrivalTick);
        t.remainingBits = 0;
        t.rate = 0;
        m_arrivals->Push(t, now + delay);
        // As Simulator::Schedule would (the same time, context and uid order); the simulator
        // keeps a reference per scheduling.
        m_arrivals->Ref();
        LeanSimulatorImpl::ScheduleSteps(static_cast<uint64_t>(delay), PeekPointer(m_arrivals));
    }
    finished.clear(); // their callbacks' and events' references go now
}

void
NvlinkDomain::ComputeRates()
{
    NS_LOG_FUNCTION(this);
    std::size_t ports = 2 * static_cast<std::size_t>(m_gpus);
    if (m_capacityPerTick < 0)
    {
        m_capacityPerTick = static_cast<double>(m_bandwidth.GetBitRate()) / TicksPerSecond();
    }
    double capacity = m_capacityPerTick;
    m_residual.assign(ports, capacity);
    m_pending.assign(ports, 0);
    m_share.resize(ports);
    m_assigned.assign(m_active.size(), 0);
    // Port of the egress of GPU g: g; of its ingress: Gpus + g.
    uint32_t most = 0; // the most transfers through one port
    for (const Transfer& t : m_active)
    {
        most = std::max({most, ++m_pending[t.src], ++m_pending[m_gpus + t.dst]});
    }
    if (most <= 2)
    {
        // At most two transfers through a port (rings inside the server, one or two channels):
        // the search below gives capacity / 2 to every transfer through a port of two and the
        // whole capacity to the others. A port of two has the smallest share, max(0, capacity)
        // / 2, and keeps it after one of its transfers got it (capacity - capacity / 2 is
        // capacity / 2 exactly), so every such port is a bottleneck at that share before any
        // port of one, whose share is the whole capacity, is.
        const double half = std::max(0.0, capacity) / 2;
        const double whole = std::max(0.0, capacity) / 1;
        for (Transfer& t : m_active)
        {
            t.rate = (m_pending[t.src] == 2 || m_pending[m_gpus + t.dst] == 2) ? half : whole;
        }
        return;
    }
    // Each port's transfers, in order, so that a bottleneck's are found without a pass over
    // all of them (the same transfers in the same order as that pass).
    m_portStart.resize(ports + 1);
    m_portStart[0] = 0;
    for (std::size_t p = 0; p < ports; ++p)
    {
        m_portStart[p + 1] = m_portStart[p] + m_pending[p];
    }
    m_portFill.assign(m_portStart.begin(), m_portStart.end() - 1);
    m_portTransfers.resize(2 * m_active.size());
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        m_portTransfers[m_portFill[m_active[i].src]++] = static_cast<uint32_t>(i);
        m_portTransfers[m_portFill[m_gpus + m_active[i].dst]++] = static_cast<uint32_t>(i);
    }
    // A port's fair share of its residual capacity changes only when one of its transfers gets
    // a rate: it is computed then, by the same expression, and the search compares the kept
    // values (the same values, so the same bottlenecks and rates, as computing them all anew).
    auto shareOf = [this](std::size_t p) { return std::max(0.0, m_residual[p]) / m_pending[p]; };
    for (std::size_t p = 0; p < ports; ++p)
    {
        if (m_pending[p] != 0)
        {
            m_share[p] = shareOf(p);
        }
    }
    std::size_t left = m_active.size();
    while (left > 0)
    {
        // The bottleneck: the port with the smallest fair share of its residual capacity.
        std::size_t bottleneck = ports;
        double share = std::numeric_limits<double>::infinity();
        for (std::size_t p = 0; p < ports; ++p)
        {
            if (m_pending[p] != 0 && m_share[p] < share)
            {
                share = m_share[p];
                bottleneck = p;
            }
        }
        NS_ABORT_MSG_IF(bottleneck == ports, "NvlinkDomain: no bottleneck found");
        for (uint32_t k = m_portStart[bottleneck]; k < m_portStart[bottleneck + 1]; ++k)
        {
            const uint32_t i = m_portTransfers[k];
            if (m_assigned[i] != 0)
            {
                continue;
            }
            Transfer& t = m_active[i];
            std::size_t egress = t.src;
            std::size_t ingress = m_gpus + t.dst;
            t.rate = share;
            m_assigned[i] = 1;
            --left;
            m_residual[egress] -= share;
            m_residual[ingress] -= share;
            --m_pending[egress];
            --m_pending[ingress];
            // The two ports' shares anew (a port of several such transfers ends with the share
            // of its state after the last).
            for (std::size_t port : {egress, ingress})
            {
                if (m_pending[port] != 0)
                {
                    m_share[port] = shareOf(port);
                }
            }
        }
    }
}

void
NvlinkDomain::ScheduleWakeup()
{
    NS_LOG_FUNCTION(this);
    if (m_active.empty())
    {
        if (m_wakeupPending)
        {
            RemoveWakeup();
        }
        return;
    }
    std::size_t first = 0;
    double step = NextFinish(first);
    // After Advance, every fluid finish is more than the tolerance ahead: at least one tick.
    int64_t tick = m_syncTick + std::max<int64_t>(1, CeilTicks(step));
    if (m_wakeupPending && m_wakeupTick == tick)
    {
        return;
    }
    if (m_wakeupPending)
    {
        RemoveWakeup();
    }
    if (!m_wakeupEvent)
    {
        // MakeEvent gives the one reference this pointer keeps (false: no second one).
        m_wakeupEvent = Ptr<EventImpl>(MakeEvent(&NvlinkDomain::Wakeup, this), false);
    }
    m_wakeupPending = true;
    m_wakeupTick = tick;
    m_wakeup =
        Simulator::Schedule(TimeStep(static_cast<uint64_t>(tick - m_syncTick)), m_wakeupEvent);
}

void
NvlinkDomain::RemoveWakeup()
{
    // The wake-up moves at most transfers' starts and ends: one event object serves them all,
    // taken out of the scheduler and put back (the same order of events as a new object).
    if (!LeanSimulatorImpl::Withdraw(m_wakeup))
    {
        Simulator::Remove(m_wakeup); // cancels the object: the next wake-up makes another
        m_wakeupEvent = nullptr;
    }
    m_wakeup = EventId(); // not this object's next scheduling
    m_wakeupPending = false;
}

void
NvlinkDomain::Wakeup()
{
    NS_LOG_FUNCTION(this);
    m_wakeup = EventId(); // this event: expired from now on
    m_wakeupPending = false;
    Advance();
    ScheduleWakeup();
}

void
NvlinkDomain::Arrive(const Transfer& t)
{
    NS_LOG_FUNCTION(this << t.id);
    ++m_completed;
    m_bytesDelivered += t.bytes;
    m_endTrace(t.id, t.src, t.dst, t.bytes, Simulator::Now() - t.start);
    if (!t.arrived.IsNull())
    {
        t.arrived(t.id);
    }
}

} // namespace ns3
