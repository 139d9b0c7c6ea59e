/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_MONITOR_H
#define FABRIC_MONITOR_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Measures a RoCE fabric while it runs: queue lengths, PFC pause intervals, per-port and
 * per-priority counters, ECN marks and drops, written as CSV files.
 *
 * Ports are added one by one (AddPort, a host NIC) or with their switch (AddSwitch, which names
 * them "<switch name>/<port number>" and reads the switch's ECN marks and drops). Then:
 *
 * - EnableQueueSampling writes, every interval from the moment it is called, one row
 *   "time_ns,port,priority,queue_bytes" for every monitored port and priority whose queue is
 *   not empty, or whose length differs from what the previous sample saw (so a queue that
 *   drains gets one row with 0, then none until it fills again). The first sample is taken at
 *   the time of the call (after the events already scheduled for that time). Sampling stops
 *   when the sampler's event would be the only one left in the simulator (so Simulator::Run()
 *   without a stop time still returns), or at Finish().
 * - EnablePauseIntervals writes one row "port,priority,start_ns,end_ns" when a pause of a port
 *   by its peer (the port's "PauseState" trace) ends; Finish() writes the pauses still open,
 *   ending at the Finish time. The intervals of a port and priority add up to the pausedTime
 *   of its counters (plus the part of a pause still open).
 * - EnableMaxQueueTracking makes GetMaxQueueBytes() exact (see there).
 * - WriteCounters writes, at any time, one row per port and priority with some activity.
 *
 * Rows are written as the simulation runs; files are flushed at least once a second of wall
 * time while the sampler runs (and whenever a pause row is written more than a second after
 * the last flush), and at Finish(). Nothing costs anything per packet but a comparison per
 * frame queued in a port once EnableMaxQueueTracking was called; pause tracking costs one call
 * per pause start and end.
 *
 * The monitor holds pointers to itself in the ports' trace sources and in the sampler's event:
 * it must outlive Simulator::Run() (its destructor disconnects and cancels them). Call
 * Finish() after Simulator::Run() returns, before Simulator::Destroy().
 */
class FabricMonitor
{
  public:
    /// The number of priorities of a port.
    static constexpr uint8_t NUM_PRIORITIES = RoceNetDevice::NUM_PRIORITIES;

    FabricMonitor();
    ~FabricMonitor();

    FabricMonitor(const FabricMonitor&) = delete;
    FabricMonitor& operator=(const FabricMonitor&) = delete;

    /**
     * Monitor a port. A port may be added only once.
     * @param port the port.
     * @param name its name in the CSV files, such as "host5" (no comma, no line break).
     */
    void AddPort(Ptr<RoceNetDevice> port, const std::string& name);

    /**
     * Monitor all ports of a switch, named "<name>/<port number>", and read the switch's ECN
     * marks (per egress port) and drops (per ingress port). Add the switch after its ports.
     * @param sw the switch.
     * @param name its name, such as "leaf0".
     */
    void AddSwitch(Ptr<RoceSwitch> sw, const std::string& name);

    /**
     * Start writing queue samples (see the class description for the rule).
     * @param csvPath the file to write (created or truncated).
     * @param interval the sampling interval, positive.
     * @return false if the file cannot be opened (GetLastError() says why).
     */
    bool EnableQueueSampling(const std::string& csvPath, Time interval);

    /**
     * Start writing pause intervals.
     * @param csvPath the file to write (created or truncated).
     * @return false if the file cannot be opened (GetLastError() says why).
     */
    bool EnablePauseIntervals(const std::string& csvPath);

    /**
     * Track the largest queue length exactly, from now on: every monitored port (and every
     * port added later) keeps a high-water mark of its queues
     * (RoceNetDevice::AddQueueHighWaterMark), updated at each enqueue. Costs one comparison
     * per frame queued; without it, GetMaxQueueBytes() returns the largest sampled length.
     */
    void EnableMaxQueueTracking();

    /**
     * Write the counters of every port and priority with some activity (any counter, paused
     * time, ECN mark or drop not zero): "port,priority,tx_frames,tx_bytes,rx_frames,rx_bytes,
     * pauses_sent,resumes_sent,pauses_received,resumes_received,paused_ns,ecn_marks,
     * drops_lossy_limit,drops_headroom_full,drops_buffer_full,drops_no_route,drops_not_ipv4".
     * ECN marks and drops are those of the port's switch (0 for a port added with AddPort);
     * paused_ns includes the part of a pause still open (up to now, or to the Finish time).
     * @param csvPath the file to write (created or truncated).
     * @return false if the file cannot be opened or written (GetLastError() says why).
     */
    bool WriteCounters(const std::string& csvPath) const;

    /**
     * End the measurement at Simulator::Now(): write the pause intervals still open as ending
     * now, take a last look at the queue lengths, stop sampling, flush and close the files.
     * Later calls do nothing.
     */
    void Finish();

    /// @return the number of monitored ports.
    uint32_t GetNPorts() const;

    /**
     * @param i a port index, in the order ports were added.
     * @return its name.
     */
    const std::string& GetPortName(uint32_t i) const;

    /// @return PFC frames with non-zero quanta (pauses, not resumes) sent by monitored ports.
    uint64_t GetTotalPauseFramesSent() const;

    /// @return frames dropped by the monitored switches.
    uint64_t GetTotalDrops() const;

    /// @return packets marked CE by the monitored switches.
    uint64_t GetTotalEcnMarks() const;

    /**
     * The largest number of bytes seen in one priority queue of a monitored port. A frame
     * counts in its queue from its enqueue until it starts on the wire; with
     * EnableMaxQueueTracking the value is exact (a frame that finds its port idle counts for
     * an instant) and stops growing at Finish(), otherwise it is the largest sampled length
     * (0 without sampling).
     * @return the bytes.
     */
    uint32_t GetMaxQueueBytes() const;

    /// @return the time all priorities of all monitored ports were paused, added up (open
    /// pauses up to now, or to the Finish time).
    Time GetTotalPausedTime() const;

    /// @return "path: reason" of the last file that could not be opened or written.
    const std::string& GetLastError() const;

  private:
    /// What the monitor knows about one port.
    struct PortState
    {
        Ptr<RoceNetDevice> device;                         //!< the port
        std::string name;                                  //!< its name in the files
        Ptr<RoceSwitch> sw;                                //!< its switch, if added with one
        uint32_t switchPort{0};                            //!< its number in the switch
        std::array<uint32_t, NUM_PRIORITIES> lastSample{}; //!< queue length at last sample
        std::array<bool, NUM_PRIORITIES> pauseOpen{};      //!< paused by the peer now
        std::array<Time, NUM_PRIORITIES> pauseStart;       //!< when the open pause began
        uint32_t highWaterMark{0}; //!< its queue high-water mark (max queue tracking only)
    };

    /**
     * A priority of a port starts or stops being paused ("PauseState" trace).
     * @param index the port's index.
     * @param priority the priority.
     * @param paused true when the pause starts.
     */
    void PauseStateChanged(uint32_t index, uint8_t priority, bool paused);

    /// Take a queue sample and schedule the next one.
    void Sample();

    /**
     * Write one pause interval.
     * @param port the port.
     * @param priority the priority.
     * @param end when it ended.
     */
    void WritePauseRow(const PortState& port, uint8_t priority, Time end);

    /// Flush the files if a second of wall time has passed since the last flush.
    void MaybeFlush();

    /**
     * Open a file for writing and write its header line.
     * @param file the stream.
     * @param path the file.
     * @param header the header line, without line break.
     * @return false (and m_lastError set) on failure.
     */
    bool OpenCsv(std::ofstream& file, const std::string& path, const char* header);

    /// @return the time open pauses count up to: the Finish time, or now.
    Time PauseHorizon() const;

    /**
     * @param port a port.
     * @param priority a priority.
     * @return its paused time, the open pause included up to PauseHorizon().
     */
    Time PausedTime(const PortState& port, uint8_t priority) const;

    std::vector<PortState> m_ports;                                 //!< monitored ports
    std::unordered_map<const RoceNetDevice*, uint32_t> m_portIndex; //!< index of a device
    std::vector<Ptr<RoceSwitch>> m_switches;                        //!< monitored switches

    std::ofstream m_queueFile;                         //!< queue samples
    Time m_sampleInterval;                             //!< sampling interval
    EventId m_sampleEvent;                             //!< next sample
    std::ofstream m_pauseFile;                         //!< pause intervals
    bool m_trackMaxQueue;                              //!< ports hold high-water marks
    uint32_t m_maxQueueBytes;                          //!< largest queue length seen
    bool m_finished;                                   //!< Finish() was called
    Time m_finishTime;                                 //!< when
    mutable std::string m_lastError;                   //!< last file error, "path: reason"
    std::chrono::steady_clock::time_point m_lastFlush; //!< wall time of the last flush
};

} // namespace ns3

#endif /* FABRIC_MONITOR_H */
