# The two commands of the README: `make run` and `make test`; both install what is missing first.
# PRESET picks the CMake preset: dev, ci (warnings are errors), asan, tsan.
PRESET ?= dev
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)

.PHONY: run test deps configure build asan tsan package fresh-root-test fresh-machine-test clean

# The GUI where there is a display; elsewhere (CI, ssh) the CLI showcase, so `make run` ends.
# GUI_ARGS go to awb-gui: `make run GUI_ARGS="--zoom 150 --presentation"`, or
# `GUI_ARGS="--check-layout --screenshot shot.png"` to check the window and leave.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && [ -x $(BUILD_DIR)/bin/awb-gui ]; then \
	  $(BUILD_DIR)/bin/awb-gui --exercise journey --variant parameter-free $(GUI_ARGS); \
	else \
	  echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the CLI showcase instead"; \
	  $(BUILD_DIR)/bin/awb run --example journey --all; \
	fi

# The test preset of the same name: its environment (sanitizer options) and filter apply.
test: build
	ctest --preset $(PRESET) -j $(JOBS)

deps:
	@bash cmake/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

asan:
	$(MAKE) test PRESET=asan

# Debian packages for other machines (any x86-64, no tests): build/package/packages/awb_*.deb.
package: deps
	cmake --preset package
	cmake --build --preset package -j $(JOBS)
	cpack --preset package

# The autograder bundles on a fresh Debian 12 root (as root; makes the root's cache when missing,
# see tests/autograder/fresh_root.sh).
fresh-root-test: build
	AWB_FRESH_ROOT_CREATE=1 ctest --preset $(PRESET) -L fresh-root

# The README's `make test` from a clean clone of HEAD in a fresh minimal Debian 12 root (as root;
# makes the root's cache when missing; 20-30 minutes): tests/fresh_machine.sh.
fresh-machine-test: deps
	AWB_FRESH_ROOT_CREATE=1 bash tests/fresh_machine.sh . build/fresh-machine $(PRESET)

tsan:
	$(MAKE) test PRESET=tsan

clean:
	rm -rf build
