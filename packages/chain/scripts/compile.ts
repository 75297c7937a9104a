import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACT_PATH, compileRegistry, renderArtifact } from '../src/compile.ts';

const compiled = compileRegistry();
writeFileSync(ARTIFACT_PATH, renderArtifact(compiled));
const runtimeBytes = (compiled.deployedBytecode.length - 2) / 2;
console.log(`${compiled.contractName}: solc ${compiled.compiler.version}, ${runtimeBytes} bytes of runtime code -> ${path.relative(process.cwd(), ARTIFACT_PATH)}`);
