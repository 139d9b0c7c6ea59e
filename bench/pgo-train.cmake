# The training runs of the profile-guided build (CMakeLists.txt, LLM_FABRIC_PGO): the programs
# built against the instrumented library run small cases, and their counts go to
# PGO_DIR/profile. Run by the build as
#   cmake -DPGO_DIR=... -DSCENARIO=... -DCC_COMPARE=... -DINCAST=... -DTRAIN=... -P pgo-train.cmake
# The cases are none of the benchmark's: the web-search traffic and incasts of
# llm-fabric-cc-compare under every congestion control on its default leaf-spine (MTU 1000),
# llm-fabric-incast with 16 senders, and the GPT-2 training example (MTU 4096, NVLink, rings).
foreach(var PGO_DIR SCENARIO CC_COMPARE INCAST TRAIN)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "pgo-train.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE ${PGO_DIR}/profile ${PGO_DIR}/out)
file(MAKE_DIRECTORY ${PGO_DIR}/out)
set(log ${PGO_DIR}/train.log)
file(WRITE ${log} "")

function(pgo_run name)
  execute_process(
    COMMAND ${ARGN}
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out
    RESULT_VARIABLE result
  )
  file(APPEND ${log} "== ${name}\n${out}")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "pgo-train.cmake: ${name} failed (${result}); see ${log}")
  endif()
endfunction()

pgo_run(cc-compare ${CC_COMPARE} --traffic=websearch50+incast --duration=500us
        --outDir=${PGO_DIR}/out/cc-compare
)
pgo_run(incast ${INCAST} --senders=16 --outDir=${PGO_DIR}/out/incast)
pgo_run(train ${TRAIN} --scenario=${SCENARIO} --outDir=${PGO_DIR}/out/train)
file(TOUCH ${PGO_DIR}/train.stamp)
