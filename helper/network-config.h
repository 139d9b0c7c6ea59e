/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETWORK_CONFIG_H
#define NETWORK_CONFIG_H

#include "ns3/object.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class AttributeDefaults;
class RoceTopologyHelper;

/**
 * @ingroup llm-fabric
 * The transport and switch settings of a training job's scale-out network: the RDMA MTU, the
 * queue pairs of a collective between two NICs, the congestion control and loss recovery of the
 * queue pairs, PFC, and the switch buffer with its ECN (RED) marking thresholds. These are the
 * values of a scenario's @c network section, and its @c topology.load_balancer (see Scenario).
 *
 * It keeps no values of its own for the model: Apply makes each value the default of the
 * attribute that is its one home (RdmaQueuePair::Mtu and Recovery, RdmaEndpoint::CongestionControl,
 * CollectiveRuntime::Channels, the SwitchMmu's Buffer, Kmin, Kmax, Pmax and LosslessPriorities,
 * the DCQCN profile's defaults) and installs the load balancer on the switches a topology helper
 * builds, except where the user gave that attribute on the command line (AttributeDefaults).
 * LlmTrainingHelper::Build applies it, so every program that builds a job from a scenario gets
 * the scenario's network. CongestionControl and LoadBalancer are TypeIds of any subclass of
 * RdmaCongestionOps and LoadBalancer (named in YAML by alias or TypeId name).
 *
 * A congestion control may state the switch marking it is designed for
 * (RdmaCongestionOps::GetEcnMarking: DCTCP's step at K): Apply then offers its Kmin, Kmax and
 * Pmax in place of KminBytes, KmaxBytes and Pmax wherever the scenario (MarkGiven) and the
 * command line gave none, and its SwitchMmu::EcnReferenceRate when both thresholds are its own.
 * The congestion control asked is the one the command line gave
 * (ns3::RdmaEndpoint::CongestionControl), else CongestionControl.
 *
 * The ECN thresholds follow RED as DCQCN switches use it: a queue of at most KminBytes is never
 * marked, one above KmaxBytes always, and in between with a probability rising linearly from 0
 * to Pmax. Check() requires KminBytes <= KmaxBytes <= BufferBytes, a buffer holding at least one
 * packet of Mtu bytes, and an Mtu that InfiniBand defines (256, 512, 1024, 2048 or 4096 bytes).
 *
 * The defaults describe a current RoCE fabric: 4096-byte MTU, 2 queue pairs per NIC pair,
 * DCQCN with the ConnectX (mlx5) parameters, go-back-N, PFC on (priority 3 lossless), a 32 MiB
 * switch buffer, and ECN thresholds of 100 KiB and 400 KiB with Pmax 0.2.
 */
class NetworkConfig : public Object
{
  public:
    /// The parameter set of DCQCN.
    enum DcqcnProfileKind
    {
        MLX5,        ///< The defaults of NVIDIA ConnectX NICs (mlx5 driver).
        SIGCOMM2015, ///< The values of the DCQCN paper (Zhu et al., SIGCOMM 2015).
        SIMAI        ///< The settings of the HPCC-lineage simulators (HPCC's, SimAI's).
    };

    /// How a queue pair recovers lost packets.
    enum RecoveryKind
    {
        GO_BACK_N,       ///< Resend from the lost packet on (RoCE NICs).
        SELECTIVE_REPEAT ///< Resend the lost packets only (as IRN).
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a configuration with the default attribute values. */
    NetworkConfig();
    ~NetworkConfig() override;

    /**
     * Check that the attributes are consistent with each other.
     * @return an empty string, or the first problem found, naming the scenario keys, such as
     * "kmin_bytes (500000) is above kmax_bytes (409600)".
     */
    std::string Check() const;

    /** @return the RDMA MTU: payload bytes per packet. */
    uint32_t GetMtu() const;
    /** @return the queue pairs between a pair of NICs in a collective. */
    uint32_t GetChannels() const;
    /** @return the congestion control: a RdmaCongestionOps subclass. */
    TypeId GetCongestionControl() const;
    /** @return the load balancer of the switches: a LoadBalancer subclass. */
    TypeId GetLoadBalancer() const;

    /**
     * @param stages egress stages (EgressStage subclasses) every switch adds after its ECN
     * marker, in order (topology.egress_stages).
     */
    void SetEgressStages(const std::vector<TypeId>& stages);

    /** @return the egress stages added to every switch. */
    const std::vector<TypeId>& GetEgressStages() const;
    /** @return the DCQCN parameter set. */
    DcqcnProfileKind GetDcqcnProfile() const;
    /** @return the DCQCN parameter set's name: "mlx5", "sigcomm2015" or "simai". */
    std::string GetDcqcnProfileName() const;
    /** @return the loss recovery. */
    RecoveryKind GetRecovery() const;
    /**
     * @return the loss recovery as RdmaQueuePair's Recovery attribute names it: "GoBackN" or
     * "SelectiveRepeat".
     */
    std::string GetRecoveryName() const;
    /** @return true if PFC makes priority 3 lossless. */
    bool GetPfc() const;
    /** @return the buffer of a switch, in bytes. */
    uint32_t GetBufferBytes() const;
    /** @return the queue length below which no packet is ECN-marked, in bytes. */
    uint32_t GetKminBytes() const;
    /** @return the queue length above which every packet is ECN-marked, in bytes. */
    uint32_t GetKmaxBytes() const;
    /** @return the marking probability at KmaxBytes, in [0, 1]. */
    double GetPmax() const;

    /**
     * Make every value the default of its attribute, unless the user gave it, and have the
     * topology helper install the load balancer (see the class description).
     * @param defaults what the user gave.
     * @param topology the helper that builds the switches.
     * @return an empty string, or the problem (Check's, an unknown DCQCN profile, or the
     * congestion control's CheckConfig).
     */
    std::string Apply(const AttributeDefaults& defaults, RoceTopologyHelper& topology) const;

    /**
     * Record that a scenario gave an attribute (the loader calls it for each network key it
     * reads), so that Apply can tell a value the scenario chose from a default.
     * @param attribute the attribute's name, e.g. "KminBytes".
     */
    void MarkGiven(const std::string& attribute);

    /**
     * @param attribute an attribute's name.
     * @return whether MarkGiven recorded it.
     */
    bool IsGiven(const std::string& attribute) const;

    /// The AttributeDefaults name under which a program marks a DCQCN profile the user chose.
    static constexpr const char* DCQCN_PROFILE_SETTING = "dcqcn-profile";

  protected:
    void DoInitialize() override;

  private:
    /**
     * Offer the switches' ECN marking: KminBytes, KmaxBytes and Pmax, or the congestion
     * control's marking where neither the scenario nor the command line gave them.
     * @param defaults what the user gave.
     */
    void OfferEcnMarking(const AttributeDefaults& defaults) const;

    /**
     * @param defaults what the user gave.
     * @return the congestion control that will run: the command line's
     * (ns3::RdmaEndpoint::CongestionControl), else CongestionControl.
     */
    TypeId EffectiveCongestionControl(const AttributeDefaults& defaults) const;

    uint32_t m_mtu;                     //!< RDMA MTU, bytes.
    uint32_t m_channels;                //!< Queue pairs per NIC pair.
    TypeId m_congestionControl;         //!< Congestion control.
    TypeId m_loadBalancer;              //!< Load balancer of the switches.
    std::vector<TypeId> m_egressStages; //!< Egress stages added to every switch.
    DcqcnProfileKind m_dcqcnProfile;    //!< DCQCN parameter set.
    RecoveryKind m_recovery;            //!< Loss recovery.
    bool m_pfc;                         //!< PFC on priority 3.
    uint32_t m_bufferBytes;             //!< Switch buffer, bytes.
    uint32_t m_kminBytes;               //!< ECN Kmin, bytes.
    uint32_t m_kmaxBytes;               //!< ECN Kmax, bytes.
    double m_pmax;                      //!< ECN marking probability at Kmax.
    std::set<std::string> m_given;      //!< Attributes a scenario gave.
};

} // namespace ns3

#endif /* NETWORK_CONFIG_H */
