#!/usr/bin/env bash
# boot.sh BOOT [PART NN]: see README.md. Returns at once; the build goes on in the background.
# FA=ON builds the flash-attention kernels too (longer; see README.md).
set -euo pipefail
BOOT=$(cd "$1" && pwd)
mkdir -p /tmp/dev/parts /tmp/bin /tmp/site /tmp/pd
cd /tmp/dev
tar xzf "$BOOT/llama.cpp.tgz"
setsid nohup bash -c 'cmake -S llama.cpp -B lb -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DGGML_CUDA_FA=${FA:-OFF} -DGGML_CUDA_NCCL=OFF -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF \
  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
  -DLLAMA_OPENSSL=OFF -DCMAKE_BUILD_TYPE=Release > build.log 2>&1 \
  && cmake --build lb -j16 --target llama-server >> build.log 2>&1; echo "BUILD-EXIT $?" >> build.log' \
  > /dev/null 2>&1 < /dev/null &
python3 -m pip install -q --no-index --no-deps --target /tmp/site "$BOOT"/wheels/*.whl
cp "$BOOT/bwrap" /tmp/bin/bwrap && chmod +x /tmp/bin/bwrap
cd - > /dev/null
tar cf - --exclude=./gpu --exclude=./.git . | (cd /tmp/pd && tar xf -)
if [[ $# -ge 3 ]]; then cp "$2" "/tmp/dev/parts/$3"; fi
PATH=/tmp/bin:$PATH bwrap --ro-bind / / --dev /dev --proc /proc --unshare-net true && echo "bwrap works"
PYTHONPATH=/tmp/site python3 -c "import openai, pydantic, pyflakes; print('python ok', openai.__version__)"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
echo "booted; parts: $(ls /tmp/dev/parts | wc -l)"
