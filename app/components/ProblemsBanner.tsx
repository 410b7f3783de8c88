import { Banner, List } from "@shopify/polaris";
import { useAdminStrings } from "./AdminLanguage";

export interface ProblemView {
  code: string;
  message: string;
  fix: string;
}

export function ProblemsBanner({ problems, title }: { problems: ProblemView[]; title?: string }) {
  const t = useAdminStrings().ship.problems;
  if (problems.length === 0) return null;
  return (
    <Banner tone="warning" title={title ?? t.title}>
      <List>
        {problems.map((problem) => (
          <List.Item key={problem.code}>
            {problem.message} {problem.fix}
          </List.Item>
        ))}
      </List>
    </Banner>
  );
}
