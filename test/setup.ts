// Every test file runs with the built-in strategies registered, as the CLI and the library face
// register them (harness/strategy/registry.ts starts empty).
import { registerBuiltinStrategies } from '../strategies/registry.ts';

registerBuiltinStrategies();
