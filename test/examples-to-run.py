#! /usr/bin/env python3
# Examples that ns-3's test.py runs inside an ns-3 tree: (example and arguments, do_run,
# do_valgrind_run). The standalone build runs them from the llm-fabric-examples suite.

cpp_examples = [
    ("llm-fabric-wire-formats --pcap=llm-fabric-wire-formats-test.pcap", "True", "True"),
    ("llm-fabric-wire-formats --bytes=100 --mtu=4096 --pcap=llm-fabric-wire-formats-test.pcap", "True", "False"),
    ("llm-fabric-pfc-incast --senders=4 --packets=200 --outDir=/tmp", "True", "False"),
]

python_examples = []
