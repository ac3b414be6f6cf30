#!/usr/bin/env node
// A committed shim, so the bin exists at install time in the workspace; the code is built.
import '../dist/bin.js';
