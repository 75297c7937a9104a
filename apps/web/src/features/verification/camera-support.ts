/**
 * Whether the camera can be used here, and why not in plain words (the page offers a photo
 * instead): browsers give the camera to secure contexts only (https, or localhost).
 */
export type CameraProblem = 'insecure' | 'unsupported' | 'denied' | 'noCamera' | 'busy' | 'failed';

/** What is known before asking: no secure context, or no camera API at all. */
export function cameraProblemBeforeAsking(scope: { isSecureContext?: boolean; navigator?: Partial<Navigator> } = globalThis): CameraProblem | null {
  if (scope.isSecureContext === false) return 'insecure';
  if (typeof scope.navigator?.mediaDevices?.getUserMedia !== 'function') return 'unsupported';
  return null;
}

/** What getUserMedia's refusal means (DOMException names of the Media Capture spec). */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = error && typeof error === 'object' && 'name' in error ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
      return 'denied';
    case 'SecurityError':
      return 'insecure';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'noCamera';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'busy';
    default:
      return 'failed';
  }
}
