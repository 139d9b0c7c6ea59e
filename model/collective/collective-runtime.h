/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_RUNTIME_H
#define COLLECTIVE_RUNTIME_H

#include "collective-choices.h"
#include "collective-plan.h"
#include "collective-strategy.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

class NvlinkDomain;
class RdmaEndpoint;
class RdmaQueuePair;

/**
 * @ingroup llm-fabric
 * What a finished collective instance reports (the CollectiveDone trace).
 */
struct CollectiveRecord
{
    uint64_t instance{0}; //!< Instance number, in order of creation.
    std::string label;    //!< The caller's label (e.g. "DP all-reduce bucket 3").
    CollectiveKind kind{CollectiveKind::ALL_REDUCE}; //!< The collective.
    TypeId algorithm;       //!< Its strategy's type (TypeIdAlias::GetShortName names it).
    uint32_t groupSize{0};  //!< Ranks in the group.
    uint64_t bytes{0};      //!< Message size S.
    uint64_t interBytes{0}; //!< Payload bytes of its transfers between servers.
    uint64_t intraBytes{0}; //!< Payload bytes of its transfers inside servers.
    uint32_t transfers{0};  //!< Its transfers.
    Time firstJoin;         //!< When the first member started it.
    Time lastJoin;          //!< When the last member started it.
    Time end;               //!< When the last member finished it.
    /// The earliest it could have ended given its members' join times (EarliestEnd), minus
    /// lastJoin; zero if that is not after lastJoin. end - lastJoin is never less.
    Time ideal;
};

/**
 * @ingroup llm-fabric
 * What a finished point-to-point transfer reports (the TransferDone trace).
 */
struct TransferRecord
{
    uint64_t instance{0}; //!< The collective instance it belongs to.
    uint32_t srcRank{0};  //!< Global rank of the sender.
    uint32_t dstRank{0};  //!< Global rank of the receiver.
    uint64_t bytes{0};    //!< Payload bytes.
    bool nvlink{false};   //!< Inside a server (NVLink) or through the NICs (RDMA).
    Time start;           //!< When it was posted.
    Time end;             //!< When its last byte arrived.
    Time ideal;           //!< Its time alone on an idle path (CollectiveRuntime::IdealTransfer).
};

/**
 * @ingroup llm-fabric
 * @brief Executes collectives of many ranks over the simulated cluster: plans each collective
 * with the strategy of its kind, and runs its transfers over NVLink domains (ranks of one server)
 * or RDMA queue pairs (ranks of different servers), each transfer starting as soon as its sender
 * has joined the collective and its dependencies have arrived.
 *
 * <b>Ranks and places.</b> Rank r is GPU r mod G of server r div G (G = GpusPerServer, as in
 * ParallelLayout). Each rank has the RDMA endpoint of its NIC (SetNic; GPUs may share a NIC) and
 * each server an NvlinkDomain (SetNvlinkDomain).
 *
 * <b>Instances.</b> A collective instance is named by its ordered group (the global ranks, group
 * rank i being members[i]) and a sequence number: every member joins the k-th collective it runs
 * on that group with the same sequence number k (the caller, LlmTrainingApplication, counts them;
 * like NCCL, members must issue the collectives of one group in the same order). The first member
 * to join creates the instance and its plan (CollectiveStrategy::Plan with the group's ranks per
 * server as localSize when the group fills whole servers evenly, else 1); later members find it.
 *
 * <b>Transfers.</b> A transfer starts when its sender has joined and every transfer in its deps
 * has arrived (data may arrive at a member that has not joined yet: buffers are registered ahead,
 * as NCCL's are). Between servers it is one RDMA WRITE on the queue pair of (sender NIC, receiver
 * NIC, channel), created on first use with its own UDP source port (the ECMP entropy); the
 * receiver's message-complete callback is its arrival (messages of a queue pair arrive in order),
 * the sender's acknowledgement its send completion. Inside a server it is an NvlinkDomain
 * transfer; its arrival is also its send completion. A transfer with an applyAfter list counts as
 * arrived once its data is in and the listed transfers are sent. A member is done when all its
 * sends are complete and all its receives have arrived; its callback then runs. The instance ends
 * when every member is done; CollectiveDone fires with its record.
 *
 * <b>Ideal time</b> (EarliestEnd, IdealTime): a lower bound of the time the plan's last transfer
 * can arrive, with no other traffic: every transfer starts no earlier than its sender's join and
 * its dependencies' arrival, and arrives no earlier than its start plus IdealTransfer (its wire
 * bytes at NicRate plus the path latency of its last frame; or its payload at the NVLink
 * bandwidth plus the NVLink latency), nor before the transfers of its applyAfter list have come
 * in; and a NIC sends (receives) its inter-server transfers one after another, so the last of a
 * rank's sends arrives no earlier than the first one's start plus all their wire bytes at
 * NicRate plus the least of their path latencies, and the last of its receives no earlier than
 * the first one's start plus all their wire bytes at NicRate. Each of these is a time no run can
 * beat, so the largest is one as well: a collective's time over its ideal is at least 1. Wire bytes
 * of a message of B payload bytes in packets of at most Mtu: B + 82 per packet (IPv4 20, UDP 8,
 * BTH 12, ICRC 4, Ethernet 14, FCS 4, preamble and gap 20) + 16 (the RETH of the first). ACK
 * frames on the same links are not counted.
 */
class CollectiveRuntime : public Object
{
  public:
    /// Callback when a rank has finished its part of a collective.
    typedef Callback<void> DoneCallback;

    /**
     * Path latency between two NICs (host indices of the fabric) of a frame of the given wire
     * bytes (Ethernet header, FCS, preamble and gap included): the switches store and forward it.
     */
    typedef Callback<Time, uint32_t, uint32_t, uint32_t> LatencyModel;

    /**
     * Signature of the CollectiveDone trace.
     * @param record the finished instance.
     */
    typedef void (*CollectiveDoneTracedCallback)(const CollectiveRecord& record);

    /**
     * Signature of the TransferDone trace.
     * @param record the finished transfer.
     */
    typedef void (*TransferDoneTracedCallback)(const TransferRecord& record);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveRuntime();
    ~CollectiveRuntime() override;

    /**
     * @param gpusPerServer GPUs per server G (rank r is on server r / G).
     */
    void SetGpusPerServer(uint32_t gpusPerServer);

    /**
     * @param rank a global rank.
     * @param endpoint the RDMA endpoint of its NIC.
     * @param nic the NIC's host index in the fabric (for the LatencyModel).
     */
    void SetNic(uint32_t rank, Ptr<RdmaEndpoint> endpoint, uint32_t nic);

    /**
     * @param server a server.
     * @param domain its NVLink domain (GpusPerServer GPUs).
     */
    void SetNvlinkDomain(uint32_t server, Ptr<NvlinkDomain> domain);

    /**
     * Choose the algorithm of a collective kind (as the attributes AllReduce, AllGather, ...
     * do).
     * @param kind the collective.
     * @param algorithm the TypeId of a CollectiveStrategy subclass.
     */
    void SetAlgorithm(CollectiveKind kind, TypeId algorithm);

    /**
     * @param kind a collective.
     * @return the TypeId of the strategy that plans it.
     */
    TypeId GetAlgorithm(CollectiveKind kind) const;

    /**
     * @param kind a collective.
     * @return the name of the attribute that chooses its algorithm ("AllReduce", ...).
     */
    static std::string GetAlgorithmAttributeName(CollectiveKind kind);

    /// @param model the path latency between two NICs, for IdealTime and IdealTransfer.
    void SetLatencyModel(LatencyModel model);

    /// What a member joins (Join).
    struct Description
    {
        CollectiveKind kind; //!< the collective
        uint64_t bytes;      //!< its message size S (CollectiveVolume's definition)
        std::string label;   //!< a name for the records
        /// A number below MAX_CATEGORIES under which the bytes the members send are counted
        /// (LlmTrainingApplication uses the TrafficStrategy).
        uint32_t category = 0;
    };

    /**
     * Join a collective instance (see the class description).
     * @param rank the global rank joining.
     * @param members the group, in group order (rank must be in it).
     * @param sequence the number of collectives this rank ran on this group before.
     * @param what the collective, its size, its name and its byte category (every member
     *        must give the same kind and size).
     * @param done called when this rank's part is done.
     * @return "" or why the collective cannot run (plan refused, inconsistent members).
     */
    std::string Join(uint32_t rank,
                     const std::vector<uint32_t>& members,
                     uint64_t sequence,
                     const Description& what,
                     DoneCallback done);

    /**
     * Plan a collective as Join would (same strategy, channels and localSize rule).
     * @param members the group.
     * @param kind the collective.
     * @param bytes its message size.
     * @param[out] plan the plan.
     * @return "" or the problem.
     */
    std::string PlanFor(const std::vector<uint32_t>& members,
                        CollectiveKind kind,
                        uint64_t bytes,
                        CollectivePlan& plan) const;

    /**
     * The ideal time of a plan: EarliestEnd with every member joining at time 0.
     * @param plan the plan.
     * @param members its group's global ranks.
     * @return the time.
     */
    Time IdealTime(const CollectivePlan& plan, const std::vector<uint32_t>& members) const;

    /**
     * The earliest time a plan's last transfer can arrive (see the class description).
     * @param plan the plan.
     * @param members its group's global ranks.
     * @param joins per group rank, when that member joined (any common origin).
     * @return the time, on the origin of joins.
     */
    Time EarliestEnd(const CollectivePlan& plan,
                     const std::vector<uint32_t>& members,
                     const std::vector<Time>& joins) const;

    /**
     * The time of one transfer alone on an idle path: wire bytes at NicRate plus the path
     * latency of its last frame (between servers), or payload at the NVLink bandwidth plus its
     * latency (inside).
     * @param srcRank the sender.
     * @param dstRank the receiver.
     * @param bytes the payload.
     * @return the time.
     */
    Time IdealTransfer(uint32_t srcRank, uint32_t dstRank, uint64_t bytes) const;

    /**
     * @param bytes an RDMA message's payload bytes.
     * @return its bytes on the wire (see the class description).
     */
    uint64_t WireBytes(uint64_t bytes) const;

    /**
     * Seconds(s), remembered for the values asked last. IdealTransfer asks for a few
     * serialization times (one per message size and rate) millions of times in a training run,
     * and Seconds converts through ns-3's 128-bit fixed point with long double arithmetic. The
     * same double gives the same Time: a remembered value is the one Seconds returned for it.
     * @param s seconds.
     * @return Seconds(s).
     */
    Time RememberedSeconds(double s) const;

    /// @return collective instances not finished yet.
    uint32_t GetActiveInstances() const;
    /// @return collective instances finished.
    uint64_t GetFinishedInstances() const;
    /// @return queue pairs created (one per NIC pair and channel, counting one end).
    uint32_t GetQueuePairs() const;
    /// @return payload bytes each rank has sent between servers (RDMA), by rank.
    const std::vector<uint64_t>& GetInterBytesSent() const;
    /// @return payload bytes each rank has sent inside its server (NVLink), by rank.
    const std::vector<uint64_t>& GetIntraBytesSent() const;
    /// @return RDMA messages each rank has posted, by rank.
    const std::vector<uint64_t>& GetMessagesSent() const;

    /// Bytes a data packet adds to its payload on the wire: IPv4 20, UDP 8, BTH 12, ICRC 4,
    /// Ethernet 14, FCS 4, preamble and inter-frame gap 20.
    static constexpr uint64_t PACKET_OVERHEAD_BYTES = 82;

    /// The number of byte categories of Join.
    static constexpr uint32_t MAX_CATEGORIES = 8;

    /**
     * @param rank a rank.
     * @param category a category of Join.
     * @param inter true: bytes sent to other servers (RDMA); false: inside the server (NVLink).
     * @return the payload bytes the rank has sent in collectives of that category.
     */
    uint64_t GetBytesSent(uint32_t rank, uint32_t category, bool inter) const;

  protected:
    void DoDispose() override;

  private:
    /// State of one transfer of an instance.
    struct TransferState
    {
        uint32_t pendingDeps{0};       //!< deps not arrived yet
        uint32_t pendingApplyAfter{0}; //!< applyAfter transfers not sent yet
        bool started{false};           //!< posted
        bool dataIn{false};            //!< its data is at the receiver
        bool arrived{false};           //!< counts as arrived
        bool sent{false};              //!< the sender is done with it
        Time start;                    //!< when posted
    };

    /**
     * A plan with what every instance of it derives from the plan alone: made once per
     * strategy, kind, group size, message size, ranks per server and channels (Plan is a
     * function of these), and shared by the instances of that shape.
     */
    struct PreparedPlan
    {
        CollectivePlan plan;                            //!< the strategy's plan
        std::vector<std::vector<uint32_t>> dependents;  //!< per transfer: those listing it in deps
        std::vector<std::vector<uint32_t>> applyBefore; //!< per transfer: in applyAfter
        std::vector<uint32_t> remaining; //!< per group rank: its sends plus its receives
    };

    /// What makes two collectives' plans the same: strategy uid, kind, n, bytes, localSize,
    /// channels.
    typedef std::tuple<uint16_t, CollectiveKind, uint32_t, uint64_t, uint32_t, uint32_t> PlanKey;

    /// One collective instance.
    struct Instance
    {
        uint64_t number{0};                           //!< instance number
        uint64_t sequence{0};                         //!< its sequence number on its group
        std::vector<uint32_t> members;                //!< global ranks, group order
        std::shared_ptr<const PreparedPlan> prepared; //!< its plan, shared
        std::vector<TransferState> transfers;         //!< per transfer
        std::vector<bool> joined;                     //!< per group rank
        std::vector<Time> joinedAt;                   //!< per group rank: when it joined
        std::vector<uint32_t> remaining;              //!< per group rank: sends + receives left
        std::vector<DoneCallback> done;               //!< per group rank
        uint32_t ranksDone{0};                        //!< members finished
        uint32_t category{0};                         //!< byte category
        CollectiveRecord record;                      //!< what it reports
    };

    /// Where a transfer lives.
    struct TransferRef
    {
        uint64_t instance; //!< instance number
        uint32_t transfer; //!< transfer id
    };

    /// Queue-pair bookkeeping.
    struct QpState
    {
        std::unordered_map<uint64_t, TransferRef> sends; //!< by message id
        std::deque<TransferRef> receives;                //!< in posting order
    };

    /**
     * @param members a group.
     * @return ranks per server of the group if it spans whole servers evenly in rank order,
     * else 1.
     */
    uint32_t LocalSizeOf(const std::vector<uint32_t>& members) const;

    /**
     * The prepared plan of a collective, from the cache or planned (as PlanFor) and cached.
     * @param members the group.
     * @param kind the collective.
     * @param bytes its message size.
     * @param[out] prepared the plan.
     * @return "" or the problem (nothing is cached then).
     */
    std::string Prepare(const std::vector<uint32_t>& members,
                        CollectiveKind kind,
                        uint64_t bytes,
                        std::shared_ptr<const PreparedPlan>& prepared);

    /**
     * Attribute accessors of the algorithm of one kind.
     * @tparam KIND the collective.
     * @param algorithm the TypeId of a CollectiveStrategy subclass.
     */
    template <CollectiveKind KIND>
    void SetAlgorithmOf(TypeId algorithm)
    {
        SetAlgorithm(KIND, algorithm);
    }

    /**
     * @tparam KIND the collective.
     * @return the TypeId of its strategy.
     */
    template <CollectiveKind KIND>
    TypeId GetAlgorithmOf() const
    {
        return GetAlgorithm(KIND);
    }

    /**
     * Start a transfer if its sender joined and its deps arrived.
     * @param inst the instance.
     * @param t the transfer.
     */
    void MaybeStart(Instance& inst, uint32_t t);
    /**
     * Post a transfer.
     * @param inst the instance.
     * @param t the transfer.
     */
    void Start(Instance& inst, uint32_t t);
    /**
     * The queue pair of a NIC pair and channel, created on first use.
     * @param src sending rank.
     * @param dst receiving rank.
     * @param channel the channel.
     * @return the sender's queue pair, then the receiver's.
     */
    std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> GetQueuePair(uint32_t src,
                                                                   uint32_t dst,
                                                                   uint32_t channel);
    /**
     * A transfer's data is in.
     * @param ref the transfer.
     */
    void DataIn(TransferRef ref);
    /**
     * A transfer counts as arrived.
     * @param inst the instance.
     * @param t the transfer.
     */
    void Arrived(Instance& inst, uint32_t t);
    /**
     * The sender is done with a transfer.
     * @param ref the transfer.
     */
    void Sent(TransferRef ref);
    /**
     * A group rank has one transfer less to wait for; finish it (and the instance) at zero.
     * @param inst the instance.
     * @param groupRank the group rank.
     */
    void Progress(Instance& inst, uint32_t groupRank);
    /**
     * Queue-pair callback: a message was acknowledged.
     * @param qp the queue pair.
     * @param id message id.
     * @param bytes its size.
     */
    void QpSent(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes);
    /**
     * Queue-pair callback: a message arrived.
     * @param qp the queue pair.
     * @param id message number.
     * @param bytes its size.
     */
    void QpReceived(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes);
    /**
     * NVLink callback: a transfer arrived.
     * @param server the server of the domain.
     * @param id the domain's transfer id.
     */
    void NvlinkArrived(uint32_t server, uint64_t id);

    uint32_t m_channels;                                              //!< channels per rank pair
    uint32_t m_mtu;                                                   //!< RDMA MTU, for wire bytes
    DataRate m_nicRate;                                               //!< NIC rate, for ideal times
    uint32_t m_gpusPerServer;                                         //!< G
    std::vector<Ptr<RdmaEndpoint>> m_nicOfRank;                       //!< per rank
    std::vector<uint32_t> m_nicIndex;                                 //!< per rank: host index
    std::vector<Ptr<NvlinkDomain>> m_domains;                         //!< per server
    CollectiveChoices m_algorithms;                                   //!< per kind
    mutable std::map<uint16_t, Ptr<CollectiveStrategy>> m_strategies; //!< made once, by TypeId uid
    std::map<PlanKey, std::shared_ptr<const PreparedPlan>> m_plans;   //!< prepared plans
    /// Per server: the callback its domain calls at an arrival (bound to the server).
    std::vector<Callback<void, uint64_t>> m_nvlinkArrived;
    /// Per server: the transfer of each domain transfer id in flight.
    std::vector<std::unordered_map<uint64_t, TransferRef>> m_nvlinkRefs;
    LatencyModel m_latency;                                                 //!< path latency
    std::map<std::pair<std::vector<uint32_t>, uint64_t>, uint64_t> m_byKey; //!< key -> number
    std::unordered_map<uint64_t, std::unique_ptr<Instance>> m_instances;    //!< by number
    uint64_t m_nextInstance;                                                //!< next number
    uint64_t m_finished;                                                    //!< instances done
    /// Queue pairs by (lower NIC rank key, higher, channel): the pair's two ends.
    std::map<std::array<uint64_t, 3>, std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>> m_qps;
    std::unordered_map<const RdmaQueuePair*, QpState> m_qpState; //!< per queue pair
    std::vector<uint64_t> m_interBytesSent;                      //!< per rank
    std::vector<uint64_t> m_intraBytesSent;                      //!< per rank
    std::vector<uint64_t> m_messagesSent;                        //!< per rank
    /// Per rank and category: bytes sent inside the server [0] and to other servers [1].
    std::vector<std::array<std::array<uint64_t, 2>, MAX_CATEGORIES>> m_categoryBytes;

    /// A double's bits and Seconds of it (RememberedSeconds).
    struct SecondsMemo
    {
        uint64_t bits{0}; //!< the double's bits (0: +0.0)
        Time value{0};    //!< Seconds of it
    };

    /// RememberedSeconds's values, by a hash of the bits (a new value replaces an old one).
    mutable std::array<SecondsMemo, 16> m_secondsMemo;
    TracedCallback<const CollectiveRecord&> m_collectiveDone; //!< CollectiveDone
    TracedCallback<const TransferRecord&> m_transferDone;     //!< TransferDone
};

} // namespace ns3

#endif /* COLLECTIVE_RUNTIME_H */
