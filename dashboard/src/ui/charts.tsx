// A bar chart per day as plain SVG: no chart library (the dashboard loads nothing else and stays
// small). Each bar has a <title> (the day and its value, shown on hover and read by screen readers);
// the figure's total is printed above it.
import { useId } from 'react';

export interface DayValue {
  date: string;
  value: number;
}

const WIDTH = 300;
const HEIGHT = 90;

export function DailyBars({ title, days, format }: { title: string; days: DayValue[]; format: (value: number) => string }) {
  const id = useId();
  const total = days.reduce((sum, day) => sum + day.value, 0);
  const max = Math.max(1, ...days.map((day) => Math.abs(day.value)));
  const step = WIDTH / Math.max(1, days.length);
  const barWidth = Math.max(1, step - 2);
  return (
    <figure className="chart" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <p className="chart-total">{format(total)}</p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={`${title} per day: ${format(total)} in all`}>
        <line className="chart-axis" x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} />
        {days.map((day, i) => {
          const height = day.value === 0 ? 0 : Math.max(2, (Math.abs(day.value) / max) * (HEIGHT - 4));
          return (
            <rect key={day.date} className="chart-bar" x={i * step + 1} y={HEIGHT - 1 - height} width={barWidth} height={height}>
              <title>{`${day.date}: ${format(day.value)}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <div className="chart-range">
          <span>{days[0]!.date}</span>
          <span>{days[days.length - 1]!.date}</span>
        </div>
      )}
    </figure>
  );
}
