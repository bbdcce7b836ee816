# The two commands of the README: `make run` and `make test`; both install what is missing first.
PRESET ?= dev
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)

.PHONY: run test deps configure build asan clean

run: build
	$(BUILD_DIR)/bin/awb run --example journey --all

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

deps:
	@bash cmake/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

asan:
	$(MAKE) test PRESET=asan

clean:
	rm -rf build
