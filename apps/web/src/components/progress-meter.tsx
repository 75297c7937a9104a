/**
 * A progress bar screen readers announce: role progressbar with aria-valuenow (in percent) and
 * the figures as aria-valuetext; the same figures are written beside the bar.
 */
export function ProgressMeter({ percent, label, text, testId }: { percent: number; label: string; text: string; testId?: string }) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div className="progress-meter" data-testid={testId}>
      <div className="progress-meter__track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value} aria-valuetext={text}>
        <div className="progress-meter__fill" style={{ width: `${value}%` }} />
      </div>
      <p className="progress-meter__text">{text}</p>
    </div>
  );
}
