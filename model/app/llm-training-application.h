/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_TRAINING_APPLICATION_H
#define LLM_TRAINING_APPLICATION_H

#include "ns3/application.h"
#include "ns3/iteration-schedule.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class CollectiveRuntime;

/**
 * @ingroup llm-fabric
 * One iteration of one rank, as LlmTrainingApplication reports it.
 */
struct IterationRecord
{
    uint32_t rank{0};      //!< The rank.
    uint32_t iteration{0}; //!< The iteration, from 0.
    Time start;            //!< When it began on this rank.
    Time end;              //!< When its last op finished.
    Time compute;          //!< Time computing (the compute ops run one at a time).
    Time communication;    //!< Time with a collective in progress (pipeline sends and receives
                           //!< excluded), overlapped with compute or not.
    Time exposed;          //!< Part of communication during which the rank did not compute.
    Time bubble;           //!< The rest: end - start - compute - exposed (waiting for pipeline
                           //!< stages or for dependencies).
};

/**
 * @ingroup llm-fabric
 * @brief One GPU rank of an LLM training job: executes its IterationSchedule for a number of
 * iterations, compute ops as timed events and collectives through a CollectiveRuntime.
 *
 * An op starts when every op in its dependsOn has finished, and:
 * - a compute op, when no other compute op runs and every earlier compute op (in schedule order)
 *   has run: the GPU's compute stream is sequential. It lasts its duration.
 * - a collective op, when no earlier op of the same group (the same ordered members) is still
 *   running or waiting: one stream per communicator, as NCCL serializes the operations of a
 *   communicator. It runs its count collectives one after the other, each joining the
 *   CollectiveRuntime instance named by the group and the number of collectives this rank ran on
 *   the group before (every member counts the same way, so they meet).
 * When every op has finished the iteration ends (IterationDone) and the next one starts at
 * once; the ops of consecutive iterations do not overlap.
 *
 * A straggler: with ComputeSlowdown f, a compute op that starts at or after SlowdownStart, in
 * an iteration of [SlowdownFirstIteration, SlowdownFirstIteration + SlowdownIterations)
 * (SlowdownIterations 0: every iteration from the first), lasts f times its duration. The
 * slowdown shows in the rank's compute time, and in every rank that waits for it (exposed
 * communication or bubble).
 *
 * Iteration breakdown (IterationRecord): compute is the sum of the compute ops' durations;
 * communication the measure of the union of the intervals of the collective ops that are not
 * pipeline-parallel sends and receives (a receive is posted early and its interval is mostly
 * waiting for the previous stage); exposed the part of that union outside compute ops; bubble
 * what remains of the iteration.
 */
class LlmTrainingApplication : public Application
{
  public:
    /**
     * Signature of the OpDone trace.
     * @param rank the rank.
     * @param iteration the iteration.
     * @param op the op's id in the schedule.
     * @param start when it started.
     * @param end when it finished (now).
     */
    typedef void (*OpDoneTracedCallback)(uint32_t rank,
                                         uint32_t iteration,
                                         uint32_t op,
                                         Time start,
                                         Time end);

    /**
     * Signature of the IterationDone trace.
     * @param record the iteration.
     */
    typedef void (*IterationDoneTracedCallback)(const IterationRecord& record);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    LlmTrainingApplication();
    ~LlmTrainingApplication() override;

    /**
     * @param schedule the rank's schedule (its rank must be the Rank attribute).
     */
    void SetSchedule(const IterationSchedule& schedule);

    /// @param runtime the runtime that executes the collectives.
    void SetRuntime(Ptr<CollectiveRuntime> runtime);

    /// @return the rank.
    uint32_t GetRank() const;

    /// @return the iterations finished.
    uint32_t GetIterationsDone() const;

    /// @return the records of the finished iterations.
    const std::vector<IterationRecord>& GetIterationRecords() const;

    /// @return true if every iteration has finished.
    bool IsFinished() const;

    /// @return a description of what the rank waits for (op names), for diagnosing a stall.
    std::string DescribePending() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Start an iteration.
    void BeginIteration();
    /// Start every op that may start.
    void StartReady();
    /**
     * Start an op.
     * @param id the op.
     */
    void StartOp(uint32_t id);
    /**
     * Run the next collective of a collective op.
     * @param id the op.
     */
    void JoinNext(uint32_t id);
    /**
     * One collective of an op finished on this rank.
     * @param id the op.
     */
    void CollectiveDone(uint32_t id);
    /**
     * An op finished.
     * @param id the op.
     */
    void FinishOp(uint32_t id);
    /// Close the iteration: compute its record.
    void EndIteration();
    /**
     * The duration of a compute op starting now, the straggler slowdown applied.
     * @param duration its duration in the schedule.
     * @return the time it lasts.
     */
    Time GetComputeDuration(Time duration) const;

    uint32_t m_rank;                                 //!< Rank attribute
    uint32_t m_iterations;                           //!< Iterations attribute
    Ptr<CollectiveRuntime> m_runtime;                //!< collectives
    std::vector<ScheduleOp> m_ops;                   //!< the schedule's ops
    std::vector<std::vector<uint32_t>> m_dependents; //!< per op: ops depending on it
    std::vector<uint32_t> m_computeOrder;            //!< compute op ids, in order
    std::map<std::vector<uint32_t>, std::vector<uint32_t>> m_groupOps; //!< ops of each group
    std::vector<const std::vector<uint32_t>*> m_groupOf;               //!< per op: its group
    std::vector<Callback<void>> m_collectiveDone; //!< per running collective op: its callback
    std::vector<uint64_t*> m_sequenceOf;          //!< per collective op: its m_sequence entry

    // Per iteration
    uint32_t m_iteration;                //!< current iteration
    bool m_running;                      //!< between start and stop
    std::vector<uint32_t> m_pendingDeps; //!< per op
    std::vector<bool> m_started;         //!< per op
    std::vector<bool> m_finished;        //!< per op
    std::vector<Time> m_opStart;         //!< per op
    std::vector<uint64_t> m_countLeft;   //!< per collective op: collectives left
    uint32_t m_opsLeft;                  //!< ops not finished
    uint32_t m_nextCompute;              //!< index in m_computeOrder
    bool m_computeBusy;                  //!< a compute op runs
    std::map<const std::vector<uint32_t>*, uint32_t> m_groupNext; //!< per group: next index
    std::map<const std::vector<uint32_t>*, bool> m_groupBusy;     //!< per group: op running
    std::map<std::vector<uint32_t>, uint64_t> m_sequence;         //!< collectives run per group
    Time m_iterationStart;                                        //!< start of the iteration
    std::vector<std::pair<Time, Time>> m_computeSpans;            //!< compute intervals
    std::vector<std::pair<Time, Time>> m_commSpans;               //!< collective intervals (not PP)

    double m_slowdown;        //!< ComputeSlowdown
    Time m_slowdownStart;     //!< SlowdownStart
    uint32_t m_slowdownFirst; //!< SlowdownFirstIteration
    uint32_t m_slowdownCount; //!< SlowdownIterations

    std::vector<IterationRecord> m_records;                            //!< finished ones
    TracedCallback<uint32_t, uint32_t, uint32_t, Time, Time> m_opDone; //!< OpDone
    TracedCallback<const IterationRecord&> m_iterationDone;            //!< IterationDone
};

} // namespace ns3

#endif /* LLM_TRAINING_APPLICATION_H */
