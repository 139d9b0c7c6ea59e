#! /usr/bin/env python3
# Examples that ns-3's test.py runs inside an ns-3 tree: (example and arguments, do_run,
# do_valgrind_run). The standalone build runs them from the llm-fabric-examples suite, which
# also runs llm-fabric-traffic-report and llm-fabric-dante (they need files of this repository,
# which test.py's working folder does not reach by a relative path).

cpp_examples = [
    ("llm-fabric-wire-formats --pcap=llm-fabric-wire-formats-test.pcap", "True", "True"),
    ("llm-fabric-wire-formats --bytes=100 --mtu=4096 --pcap=llm-fabric-wire-formats-test.pcap", "True", "False"),
    ("llm-fabric-pfc-incast --senders=4 --packets=200 --outDir=/tmp", "True", "False"),
    ("llm-fabric-incast --senders=4 --bytes=100000 --outDir=/tmp", "True", "False"),
    ("llm-fabric-leaf-spine --flows=20 --outDir=/tmp", "True", "False"),
    ("llm-fabric-pfc-hol --outDir=/tmp", "True", "False"),
    ("llm-fabric-cc-compare --ccs=dcqcn --traffic=hadoop30,websearch30+incast --duration=100us --hostsPerLeaf=2 --leaves=2 --spines=1 --incastLoad=0.2 --incastBytes=20000 --outDir=/tmp", "True", "False"),
]

python_examples = []
