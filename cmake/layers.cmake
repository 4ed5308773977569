# Walls between the layers, enforced by the compiler. Sources include headers by layer name
# ("engine/model.h", "app/app_state.h"), and each layer's target publishes an include root that
# holds only its own folder (a link to src/<layer>). A target therefore sees exactly the layers it
# links: the engine cannot include "app/...", the app cannot include "ui/...", and so on.
# tests/walls proves it by compiling wrong-way includes that must fail.
function(headlab_layer target layer)
  set(root "${CMAKE_BINARY_DIR}/include_roots/${layer}")
  file(MAKE_DIRECTORY "${root}")
  if(NOT EXISTS "${root}/${layer}")
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/src/${layer}" "${root}/${layer}" SYMBOLIC)
  endif()
  target_include_directories(${target} PUBLIC "${root}")
endfunction()
